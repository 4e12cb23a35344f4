import { receiveMessageOnPort } from 'node:worker_threads';
import type { ChannelAsk, HttpCall, HttpReply, ProcessChannelEnd, ProcessReply } from '../pool/protocol.js';
import type { JudgeAnswer } from '../script-judge.js';
import type { SnapshotAnswer, SnapshotAsk } from '../script-snapshot.js';
import { cloneable } from './describe.js';
import { goFormat } from './go-format.js';
import { remaining, runBounded } from './deadline.js';
import { loadedScript, lookup } from './loaded-scripts.js';
import type { Mocks } from './mocks.js';
import { Sandbox, type SandboxRuntime } from './sandbox.js';
import { yaoHttp } from './yao-http.js';
import { yaoTime } from './yao-time.js';

/** Globals of Yao's V8 runtime (gou `runtime/v8`) that need a Yao server; each fails with a clear message. */
const SERVER_ONLY: Record<string, string> = {
  FS: 'Yao file systems',
  Store: 'Yao key-value stores',
  Query: 'Yao database queries',
  WebSocket: 'Yao WebSocket clients',
  Studio: 'Yao Studio calls',
  $L: 'Yao translations ($L)',
};

/**
 * The parts of Yao's script runtime a sandbox offers: `Process(name, ...args)`, the `log` object,
 * `Exception`, `time`, and explicit failures for the server-only globals. One runtime serves a task and the
 * sandboxes its `Process()` calls load, which share the task's logs and deadline.
 */
export class YaoRuntime implements SandboxRuntime {
  private readonly children: Sandbox[] = [];

  /** A test's `t.mock`s and call log; `undefined` for hooks and other calls, which nothing mocks. */
  constructor(
    private readonly logs: string[],
    private readonly deadline: number,
    private readonly processes?: ProcessChannelEnd,
    private readonly mocks?: Mocks,
  ) {}

  globals(owner: Sandbox): Record<string, unknown> {
    const logs = this.logs;
    const line =
      (level: string) =>
      (format: unknown, ...args: unknown[]) =>
        void logs.push(`${level}${goFormat(format, args)}`);
    const fatal =
      (level: string) =>
      (format: unknown, ...args: unknown[]) => {
        const text = goFormat(format, args);
        logs.push(`${level}: ${text}`);
        throw new Error(`log.${level === 'FATAL' ? 'Fatal' : 'Panic'}: ${text}`);
      };
    const globals: Record<string, unknown> = {
      log: Object.freeze({
        Trace: line('TRACE: '),
        Debug: line('DEBUG: '),
        Info: line(''),
        Warn: line('WARN: '),
        Error: line('ERROR: '),
        Fatal: fatal('FATAL'),
        Panic: fatal('PANIC'),
      }),
      Process: (name: unknown, ...args: unknown[]) => this.process(name, args, owner),
      Exception: YaoException,
      time: this.mocks ? this.mocks.time(yaoTime(logs, this.deadline)) : yaoTime(logs, this.deadline),
      http: this.processes
        ? yaoHttp(this.mocks ? this.mocks.httpSender((call) => this.http(call)) : (call) => this.http(call))
        : serverOnly('http', '', 'http is available in Yao hooks, processes and script tests only; use fetch here.'),
    };
    for (const [name, what] of Object.entries(SERVER_ONLY)) globals[name] = serverOnly(name, what);
    return globals;
  }

  private http(call: Omit<HttpCall, 'timeoutMs'>): HttpReply {
    return this.exchange<HttpReply>({ http: { ...call, timeoutMs: remaining(this.deadline) } }, (why) => ({
      status: 0,
      code: 0,
      message: `${call.method} ${call.url}: ${why}`,
      headers: {},
      data: null,
    }));
  }

  dispose(): void {
    for (const child of this.children.splice(0)) child.dispose();
  }

  /**
   * Yao's `Process` is synchronous, so the target runs here: its bundle is loaded into a fresh
   * sandbox of this thread and the function is called directly. The caller's time limit covers it
   * (a loop in the target is a loop in the caller); a stub value is returned as a copy.
   */
  private process(name: unknown, args: unknown[], parent: Sandbox): unknown {
    if (typeof name !== 'string' || !name)
      throw new TypeError('Process(name, ...args): name must be a process name such as "scripts.util.Hello"');
    const real = () => {
      const reply = this.ask(name);
      if (!reply.ok) throw new Error(reply.error);
      return this.run(name, reply, args, parent);
    };
    return this.mocks ? this.mocks.process(name, args, real) : real();
  }

  /**
   * Runs the stub registered under `name` (`ctx.agent.Call`, `ctx.memory.user.Get`, …) with `args`,
   * for the parts of a hook's `ctx` that need a Yao server. `{stubbed: false}` when there is none.
   */
  stub(name: string, args: unknown[], owner: Sandbox): { stubbed: true; value: unknown } | { stubbed: false } {
    if (!this.processes) return { stubbed: false };
    const reply = this.exchange<ProcessReply>({ name, stubOnly: true }, (why) => ({
      ok: false,
      error: `${name}: ${why}`,
    }));
    if (!reply.ok) {
      if (reply.unstubbed) return { stubbed: false };
      throw new Error(reply.error);
    }
    return { stubbed: true, value: this.run(name, reply, args, owner) };
  }

  private run(name: string, reply: Extract<ProcessReply, { ok: true }>, args: unknown[], parent: Sandbox): unknown {
    const target = reply.target;
    if (target.kind === 'value') return target.value === undefined ? undefined : structuredClone(target.value);
    const child = new Sandbox(this.logs, undefined, this, parent);
    this.children.push(child);
    this.mocks?.adopt(child);
    const loaded = runBounded(this.deadline, (options) => loadedScript(target).runInContext(child.context, options));
    if (loaded.kind === 'threw') throw loaded.error;
    if (loaded.kind === 'timeout') throw new Error(`Process("${name}"): timed out while loading ${target.file}`);
    const fn = lookup(child, target.fn);
    if (!fn) throw new Error(`Process("${name}"): ${target.file} has no function ${target.fn}`);
    return (fn as (...a: unknown[]) => unknown)(...args);
  }

  /**
   * `t.assert.Agent(...)`: the arguments go to the main thread, where the judge is called, and the
   * script waits for the verdict, as Yao's synchronous call does, within the test's time limit.
   */
  judge(args: unknown[]): JudgeAnswer {
    if (!this.processes) return { pass: false, error: 't.assert.Agent is available in script tests only' };
    return this.exchange<JudgeAnswer>({ judge: { args: cloneable(args) as unknown[] } }, (why) => ({
      pass: false,
      error: `t.assert.Agent: ${why}`,
    }));
  }

  /** `t.assert.MatchSnapshot(...)`: the value goes to the main thread, where the run's snapshots are. */
  snapshot(ask: SnapshotAsk): SnapshotAnswer {
    if (!this.processes) return { pass: false, error: 't.assert.MatchSnapshot is available in script tests only' };
    return this.exchange<SnapshotAnswer>({ snapshot: ask }, (why) => ({
      pass: false,
      error: `t.assert.MatchSnapshot: ${why}`,
    }));
  }

  private ask(name: string): ProcessReply {
    if (!this.processes) {
      return {
        ok: false,
        error: `Process("${name}") is not available here: processes run only in Yao hooks and script tests, where agentest knows the app`,
      };
    }
    return this.exchange<ProcessReply>({ name }, (why) => ({ ok: false, error: `Process("${name}"): ${why}` }));
  }

  /** Posts one question to the main thread and blocks until it is answered or the time limit passes. */
  private exchange<T>(question: ChannelAsk, failed: (why: string) => T): T {
    const channel = this.processes!;
    Atomics.store(channel.cell, 0, 0);
    channel.port.postMessage(question);
    if (Atomics.wait(channel.cell, 0, 0, remaining(this.deadline)) === 'timed-out')
      return failed('no answer before the time limit');
    const received = receiveMessageOnPort(channel.port);
    return (received?.message as T | undefined) ?? failed('the answer was lost');
  }
}

/** Yao's `throw new Exception(message, code)`: an Error that carries an HTTP-like status code. */
class YaoException extends Error {
  override name = 'Exception';
  constructor(
    message?: string,
    readonly code: number = 500,
  ) {
    super(message);
  }
}

function serverOnly(name: string, what: string, sentence?: string): unknown {
  const message =
    sentence ??
    `${name} is not available when agentest runs a script: it needs a running Yao (${what}). Move the call into a function reached through Process() and stub that process with the "processes" option.`;
  const fail = () => {
    throw new Error(message);
  };
  // A plain function target, so that `new FS("data")` reaches the construct trap.
  return new Proxy(function serverOnlyGlobal() {}, {
    get: (_target, key) => (typeof key === 'symbol' || key === 'then' ? undefined : fail),
    construct: fail,
    apply: fail,
  });
}
