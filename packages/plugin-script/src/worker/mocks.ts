import type { HttpReply } from '../pool/protocol.js';
import { quotedValue } from './describe.js';
import { CallLog, type RecordedCall } from './mock-calls.js';
import { installMockDate, MockClock } from './mock-clock.js';
import { httpMatcher, mockedReply, mockedRequest, parsedBody, type HttpMatcher } from './mock-http.js';
import type { Sandbox } from './sandbox.js';
import type { HttpSender } from './yao-http.js';

/** What a mock answers with: a function of the call's arguments, or a value (returned as a copy). */
type Answer = { fn: (...args: unknown[]) => unknown } | { value: unknown };

interface HttpMock {
  matcher: HttpMatcher;
  answer: Answer;
}

/**
 * One test's mocks (`t.mock.*`) and the log of its calls. The worker makes a fresh one for every
 * test task and drops it with the task's sandboxes, so a mock never outlives its test, whether the
 * test passed, threw or timed out. Without a mock, a call goes where it goes without one: the
 * `processes` stubs of the config, the real script, the network.
 */
export class Mocks {
  readonly log = new CallLog();
  private readonly processes = new Map<string, Answer>();
  private readonly services = new Map<string, Answer>();
  private readonly http: HttpMock[] = [];
  private clock?: MockClock;
  /** The task's sandboxes, and whether their `Date` already reads the mocked clock. */
  private readonly sandboxes = new Map<Sandbox, boolean>();

  /** `Process(name, ...args)`: the mock of that name (any case), else `real()`. */
  process(name: string, args: unknown[], real: () => unknown): unknown {
    const mock = this.processes.get(name.toLowerCase());
    return this.log.record('process', name, args, mock !== undefined, () => (mock ? answer(mock, args) : real()));
  }

  /** Wraps the sender of Yao's `http` object: the first mock that matches answers, else the request goes out. */
  httpSender(send: HttpSender): HttpSender {
    return (call) => {
      const mock = this.http.find((candidate) => candidate.matcher.matches(call));
      const name = `${call.method} ${call.url}`;
      return this.log.record('http', name, [parsedBody(call.body)], mock !== undefined, () =>
        mock ? httpAnswer(mock, call) : send(call),
      );
    };
  }

  /** Yao's `time` object with every call recorded; with a mocked clock `Sleep(ms)` moves it instead of waiting. */
  time(real: Readonly<Record<string, (...args: unknown[]) => null>>): Record<string, (...args: unknown[]) => null> {
    return {
      Sleep: (...args) =>
        this.log.record('time', 'time.Sleep', args, this.clock !== undefined, () => {
          if (!this.clock) return real.Sleep!(...args);
          if (args[0] === undefined) throw new Error('time.Sleep: Missing parameters');
          this.clock.advance(Math.max(0, Math.trunc(Number(args[0])) || 0));
          return null;
        }),
      After: (...args) => this.log.record('time', 'time.After', args, false, () => real.After!(...args)),
    };
  }

  /** Registers a sandbox whose `Date` follows the mocked clock once there is one. */
  adopt(sandbox: Sandbox): void {
    this.sandboxes.set(sandbox, false);
    if (this.clock) this.mockDate(sandbox);
  }

  /**
   * Makes every service of a test's `ctx` mockable and recorded: the output methods (`ctx.Send`, …),
   * `ctx.trace`'s log methods and the namespaces that need a Yao server (`ctx.agent.Call`,
   * `ctx.memory.user.Get`, …). Fields that came with the test's data are left as they are.
   */
  context(ctx: unknown): unknown {
    if (!ctx || typeof ctx !== 'object') return ctx;
    const target = ctx as Record<string, unknown>;
    for (const key of Object.getOwnPropertyNames(target)) {
      const descriptor = Object.getOwnPropertyDescriptor(target, key)!;
      if (descriptor.enumerable || !('value' in descriptor)) continue;
      const value = descriptor.value as unknown;
      const path = `ctx.${key}`;
      if (typeof value === 'function') define(target, key, this.service(path, value as (...a: unknown[]) => unknown));
      else if (key === 'trace' && value && typeof value === 'object') define(target, key, this.traced(value));
      else if (value && typeof value === 'object') define(target, key, this.namespace(path, value));
    }
    return ctx;
  }

  /** The test's `t.mock`. */
  api(): Readonly<Record<string, unknown>> {
    return Object.freeze({
      process: (name: unknown, answerWith?: unknown) => {
        const key = requireName('t.mock.process', name, 'a process name such as "models.user.Find"').toLowerCase();
        return this.register(this.processes, key, answerOf('t.mock.process', answerWith));
      },
      ctx: (name: unknown, answerWith?: unknown) => {
        const given = requireName('t.mock.ctx', name, 'a service such as "Send" or "agent.Call"');
        const key = given.startsWith('ctx.') ? given : `ctx.${given}`;
        return this.register(this.services, key, answerOf('t.mock.ctx', answerWith));
      },
      http: (spec: unknown, answerWith?: unknown) => {
        const mock: HttpMock = { matcher: httpMatcher(spec), answer: answerOf('t.mock.http', answerWith) };
        this.http.unshift(mock);
        return handle(
          () => this.log.selectHttp(mock.matcher),
          () => {
            const index = this.http.indexOf(mock);
            if (index >= 0) this.http.splice(index, 1);
          },
        );
      },
      time: (start?: unknown, options?: unknown) => {
        this.clock = new MockClock(start, options);
        for (const sandbox of this.sandboxes.keys()) this.mockDate(sandbox);
        return this.clock.handle();
      },
      calls: (selector?: unknown) =>
        structuredClone(selector === undefined ? this.log.calls : this.log.select(String(selector))),
    });
  }

  /** Once per sandbox: its `Date` reads whichever clock the test set last. */
  private mockDate(sandbox: Sandbox): void {
    if (this.sandboxes.get(sandbox)) return;
    installMockDate(sandbox.context, () => this.clock);
    this.sandboxes.set(sandbox, true);
  }

  private register(table: Map<string, Answer>, key: string, mock: Answer): object {
    table.set(key, mock);
    return handle(
      () => this.log.select(key),
      () => {
        if (table.get(key) === mock) table.delete(key);
      },
    );
  }

  private service(path: string, real: (...args: unknown[]) => unknown): (...args: unknown[]) => unknown {
    return (...args) => {
      const mock = this.services.get(path);
      return this.log.record('ctx', path, args, mock !== undefined, () => (mock ? answer(mock, args) : real(...args)));
    };
  }

  private traced(trace: object): object {
    const wrapped: Record<string, unknown> = { ...(trace as Record<string, unknown>) };
    for (const [key, value] of Object.entries(wrapped))
      if (typeof value === 'function')
        wrapped[key] = this.service(`ctx.trace.${key}`, value as (...a: unknown[]) => unknown);
    return wrapped;
  }

  /** `ctx.agent`, `ctx.memory` (and `ctx.memory.user`, …): every method goes through `service`. */
  private namespace(path: string, inner: object): object {
    return new Proxy(
      {},
      {
        get: (_target, key) => {
          if (typeof key === 'symbol' || key === 'then' || key === 'toJSON') return undefined;
          const value = (inner as Record<string, unknown>)[key];
          if (path === 'ctx.memory' && ['user', 'team', 'chat', 'context'].includes(key))
            return this.namespace(`${path}.${key}`, value as object);
          return this.service(`${path}.${key}`, value as (...args: unknown[]) => unknown);
        },
      },
    );
  }
}

function answer(mock: Answer, args: unknown[]): unknown {
  if ('fn' in mock) return mock.fn(...args);
  return mock.value === undefined ? undefined : structuredClone(mock.value);
}

function httpAnswer(mock: HttpMock, call: Parameters<HttpSender>[0]): HttpReply {
  return mockedReply('fn' in mock.answer ? mock.answer.fn(mockedRequest(call)) : mock.answer.value);
}

function answerOf(where: string, value: unknown): Answer {
  if (typeof value === 'function') return { fn: value as (...args: unknown[]) => unknown };
  try {
    return { value: value === undefined ? undefined : structuredClone(value) };
  } catch {
    throw new TypeError(`${where}: the answer must be a function or plain data, got ${quotedValue(value)}`);
  }
}

function requireName(where: string, name: unknown, what: string): string {
  if (typeof name !== 'string' || !name.trim()) throw new TypeError(`${where}(name, answer): name must be ${what}`);
  return name.trim();
}

/** What `t.mock.*` returns: the mock's calls so far, and `Restore()` to remove it before the test ends. */
function handle(calls: () => RecordedCall[], restore: () => void): object {
  return Object.freeze({
    get calls() {
      return structuredClone(calls());
    },
    Restore: restore,
  });
}

function define(target: Record<string, unknown>, name: string, value: unknown): void {
  Object.defineProperty(target, name, { value, enumerable: false, configurable: true, writable: true });
}
