/**
 * `t.mock.*` in script tests, run in real worker threads: per-test stubs of `Process`, `http`, `time`
 * and the ctx services over the config's `processes` stubs, gone after each test (even one that threw
 * or timed out), and `t.assert.Called/NotCalled/CalledWith` over the calls each test made.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { AgentestPlugin, Execution, Suite } from '@agentest/kernel';
import { HANG_MS, plan, runKernel } from './helpers.js';

const TESTS = `
export function TestProcessValue(t: any) {
  t.mock.process("models.user.Find", { id: 1, name: "Ada" });
  t.assert.Equal(Process("models.user.find", 1), { id: 1, name: "Ada" });
  t.assert.Called("models.user.Find");
  t.assert.Called("models.user.Find", { times: 1 });
  t.assert.CalledWith("models.user.Find", 1);
  t.assert.NotCalled("models.user.Save");
}

export function TestProcessFunction(t: any) {
  const find = t.mock.process("models.user.Find", (id: number) => ({ id, name: "user " + id }));
  t.mock.process("models.user.Save", () => { throw new Error("disk full"); });
  t.assert.Equal(Process("models.user.Find", 7).name, "user 7");
  t.assert.Panic(() => Process("models.user.Save", { id: 7 }));
  const calls = t.mock.calls();
  t.assert.Len(find.calls, 1);
  return calls.map((c: any) => [c.order, c.name, c.mocked, c.returned ?? null, c.threw ?? null]);
}

export function TestConfigStubUnderMock(t: any) {
  const before = Process("models.user.Find", 2);
  const mock = t.mock.process("models.user.Find", "mocked");
  const during = Process("models.user.Find", 2);
  mock.Restore();
  return [before, during, Process("models.user.Find", 2)];
}

export function TestNoLeak(t: any) {
  return Process("models.user.Find", 3);
}

export function TestThrowsWithMock(t: any) {
  t.mock.process("models.user.Find", "from the throwing test");
  throw new Error("boom");
}

export function TestTimesOutWithMock(t: any) {
  t.mock.process("models.user.Find", "from the hanging test");
  t.mock.time("2024-01-01T00:00:00Z");
  for (;;) {}
}

export function TestCalledFails(t: any) {
  t.mock.process("models.user.Find", null);
  Process("models.user.Find", 1);
  Process("scripts.helper.Shout", "hi");
  t.assert.Called("models.user.Find", 2);
}

export function TestCalledWithFails(t: any) {
  t.mock.process("models.user.Find", null);
  Process("models.user.Find", 1);
  t.assert.CalledWith("models.user.Find", 2);
}

export function TestNotCalledFails(t: any) {
  Process("scripts.helper.Shout", "hi");
  t.assert.NotCalled("scripts.helper.Shout", "must not shout");
}

export function TestNestedProcess(t: any) {
  t.mock.process("models.user.Find", { id: 9 });
  return Process("scripts.helper.FindUser", 9);
}

export function TestHttp(t: any) {
  t.mock.http("GET https://api.example.com/users/*", { status: 200, data: { id: 5 }, headers: { "X-Id": "5" } });
  t.mock.http({ method: "POST", url: /\\/orders$/ }, (req: any) => ({ status: 201, data: { echoed: req.data } }));
  const got = http.Get("https://api.example.com/users/5", { expand: "1" });
  const posted = http.Post("https://shop.example.com/orders", { item: "tea" });
  const real = http.Get("${'${BASE}'}/real");
  t.assert.Called("GET https://api.example.com/users/5");
  t.assert.CalledWith("POST https://shop.example.com/orders", { item: "tea" });
  t.assert.Called("https://api.example.com/users/*", { times: 1 });
  return [got.status, got.data, got.headers["X-Id"], posted.status, posted.data, real.status, real.data];
}

export function TestTime(t: any) {
  const clock = t.mock.time("2024-05-01T10:00:00Z");
  const start = Date.now();
  time.Sleep(60000);
  const afterSleep = new Date().toISOString();
  clock.Add(1000);
  const helper = Process("scripts.helper.Now");
  return [start, afterSleep, Date.now() - start, helper, new Date(0).toISOString(), typeof Date(), new Date() instanceof Date];
}

export function TestStepClock(t: any) {
  t.mock.time(0);
  t.mock.time(1000, { step: 10 });
  return [Date.now(), Date.now(), new Date().getTime()];
}

export function TestRealClock(t: any) {
  return Math.abs(Date.now() - ${'${REAL_NOW}'}) < 3600000;
}

export function TestContext(t: any, ctx: any) {
  t.mock.ctx("agent.Call", (id: string) => ({ content: "hi from " + id }));
  t.mock.ctx("memory.user.Get", "dark");
  t.mock.ctx("Send", "M-mocked");
  const reply = ctx.agent.Call("tests.greeter", []);
  const theme = ctx.memory.user.Get("theme");
  const sent = ctx.Send("hello");
  ctx.SendStream("streamed");
  ctx.trace.Info("traced");
  t.assert.Called("ctx.Send", { times: 1 });
  t.assert.CalledWith("ctx.memory.user.Get", "theme");
  t.assert.Called("ctx.trace.Info");
  return [reply, theme, sent, Object.keys(ctx).includes("Send")];
}
`;

/** The test file, with the real clock's time now and the local server's address filled in. */
function testFile(base: string, extra = ''): string {
  return TESTS.replace('${REAL_NOW}', String(Date.now())).replace('${BASE}', base) + MISUSE + extra;
}

const MISUSE = `
export function TestMisuse(t: any) {
  const caught = (fn: () => unknown) => {
    try {
      fn();
      return "no throw";
    } catch (e: any) {
      return e.message;
    }
  };
  t.mock.http("GET https://bad.example.com", { status: "ok" });
  return [
    caught(() => t.mock.process("", 1)),
    caught(() => t.mock.http(42, {})),
    caught(() => t.mock.time("not a date")),
    caught(() => http.Get("https://bad.example.com")),
  ];
}

export function TestBadTimes(t: any) {
  t.assert.Called("models.user.Find", { times: -1 });
}
`;

const HELPER = `
export function Shout(text: string) { return text.toUpperCase(); }
export function FindUser(id: number) { return { found: Process("models.user.Find", id) }; }
export function Now() { return new Date().toISOString(); }
`;

describe('t.mock in script tests', () => {
  const root = mkdtempSync(join(tmpdir(), 'agentest-mocks-'));
  let server: Server;
  let runs: Map<string, Execution>;

  before(async () => {
    server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"real":true}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const files: Record<string, string> = {
      'app.yao': '{}',
      'assistants/mocked/package.yao': '{}',
      'assistants/mocked/src/mocked_test.ts': testFile(base),
      'scripts/helper.ts': HELPER,
    };
    for (const [path, content] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), content);
    }
    const collected = await runKernel(
      // The test that never ends has its own describe, with a short time limit.
      plan('scripts.mocked.mocked', root, { timeoutMs: HANG_MS, filter: /^Test(?!TimesOutWithMock)/ }),
      { processes: { 'models.user.Find': { value: 'from the config' } } },
    );
    runs = collected.runs;
  });

  after(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(root, { recursive: true, force: true });
  });

  const run = (name: string) => {
    const execution = runs.get(name);
    assert.ok(execution, `${name} ran`);
    return execution;
  };
  const passed = (name: string) => {
    const execution = run(name);
    assert.equal(execution.status, 'passed', `${name}: ${execution.error ?? ''}`);
    return execution.output;
  };

  it('answers a process with a value, any case of its name, and records the call', () => {
    passed('TestProcessValue');
  });

  it('answers with a function, passes a throw on, and records order, answers and throws', () => {
    assert.deepEqual(passed('TestProcessFunction'), [
      [1, 'models.user.Find', true, { id: 7, name: 'user 7' }, null],
      [2, 'models.user.Save', true, null, 'disk full'],
    ]);
  });

  it('keeps the config stubs as defaults under the mocks, and Restore() brings them back', () => {
    assert.deepEqual(passed('TestConfigStubUnderMock'), ['from the config', 'mocked', 'from the config']);
  });

  it('restores every mock after a test, also one that threw or timed out', () => {
    assert.equal(run('TestThrowsWithMock').status, 'error');
    assert.equal(passed('TestNoLeak'), 'from the config');
  });

  it('says what was called instead when Called, CalledWith or NotCalled fails', () => {
    const called = run('TestCalledFails');
    assert.equal(called.status, 'failed');
    assert.equal(
      called.error,
      'assertion failed: expected models.user.Find to be called 2 times, it was called 1 time; calls made: models.user.Find(1), scripts.helper.Shout("hi")',
    );
    assert.deepEqual(called.details!.assertion, {
      type: 'Called',
      expected: 2,
      actual: 1,
      message:
        'expected models.user.Find to be called 2 times, it was called 1 time; calls made: models.user.Find(1), scripts.helper.Shout("hi")',
    });
    const withArgs = run('TestCalledWithFails');
    assert.equal(
      withArgs.error,
      'assertion failed: expected a call models.user.Find(2); its calls: models.user.Find(1)',
    );
    assert.equal(run('TestNotCalledFails').error, 'assertion failed: must not shout');
  });

  it('refuses a mock it cannot use with a message saying what it takes', () => {
    assert.deepEqual(passed('TestMisuse'), [
      't.mock.process(name, answer): name must be a process name such as "models.user.Find"',
      't.mock.http: the first argument must say which requests to answer: "GET https://api.example.com/users", a URL, a RegExp or {method, url}; got 42',
      't.mock.time: the time must be ms since the epoch, an ISO date or a Date; got "not a date"',
      't.mock.http: "status" must be a whole number such as 200, got "ok"',
    ]);
    assert.equal(
      run('TestBadTimes').error,
      'assertion failed: Called: times must be a whole number of calls, got -1; nothing was called',
    );
  });

  it('mocks processes called from other scripts the test runs', () => {
    assert.deepEqual(passed('TestNestedProcess'), { found: { id: 9 } });
  });

  it('answers matching http requests and lets the others go out', () => {
    assert.deepEqual(passed('TestHttp'), [
      200,
      { id: 5 },
      ['5'],
      201,
      { echoed: { item: 'tea' } },
      200,
      { real: true },
    ]);
  });

  it('stops the clock for Date and time.Sleep, in the test and the scripts it calls', () => {
    const start = Date.parse('2024-05-01T10:00:00Z');
    assert.deepEqual(passed('TestTime'), [
      start,
      '2024-05-01T10:01:00.000Z',
      61_000,
      '2024-05-01T10:01:01.000Z',
      '1970-01-01T00:00:00.000Z',
      'string',
      true,
    ]);
    assert.deepEqual(passed('TestStepClock'), [1000, 1010, 1020]);
    assert.equal(passed('TestRealClock'), true, 'a test without t.mock.time sees the real clock');
  });

  it('mocks and records the ctx services', () => {
    assert.deepEqual(passed('TestContext'), [{ content: 'hi from tests.greeter' }, 'dark', 'M-mocked', false]);
    assert.ok(run('TestContext').logs.includes('ctx.SendStream M1: streamed'), 'an unmocked service works as before');
  });
});

/**
 * Gives one test of the suite a short time limit of its own. The run's limit stays a hang catcher: the test after a
 * hang waits for the worker that replaces the blocked one, and its clock runs meanwhile (seconds on a busy machine).
 */
function shortLimitFor(id: string, timeoutMs: number): AgentestPlugin {
  const limited = async function* (suite: Suite) {
    for await (const testCase of suite.cases()) yield testCase.id === id ? { ...testCase, timeoutMs } : testCase;
  };
  return {
    name: 'test:short-limit',
    apply: ({ hooks }) => hooks.suite.tap('test:short-limit', (suite) => ({ ...suite, cases: () => limited(suite) })),
  };
}

describe('t.mock and timeouts', () => {
  it('a test that times out leaves no mock behind for the next test', { timeout: HANG_MS }, async () => {
    const root = mkdtempSync(join(tmpdir(), 'agentest-mocks-timeout-'));
    try {
      for (const [path, content] of Object.entries({
        'app.yao': '{}',
        'assistants/mocked/package.yao': '{}',
        'assistants/mocked/src/mocked_test.ts': testFile(
          'http://127.0.0.1:9',
          '\nexport function TestZAfter(t: any) { return [Process("models.user.Find", 1), Date.now() > 1704067200000 + 86400000]; }',
        ),
        'scripts/helper.ts': HELPER,
      })) {
        mkdirSync(dirname(join(root, path)), { recursive: true });
        writeFileSync(join(root, path), content);
      }
      const { runs } = await runKernel(
        plan('scripts.mocked.mocked', root, { timeoutMs: HANG_MS, filter: /TestTimesOutWithMock|TestZAfter/ }),
        { processes: { 'models.user.Find': { value: 'from the config' } }, maxThreads: 1 },
        [shortLimitFor('TestTimesOutWithMock', 1000)],
      );
      assert.equal(runs.get('TestTimesOutWithMock')!.status, 'timeout');
      assert.match(runs.get('TestTimesOutWithMock')!.error!, /^timeout after (1s|1000ms)/, 'at its own limit');
      assert.deepEqual(runs.get('TestZAfter')!.output, ['from the config', true]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
