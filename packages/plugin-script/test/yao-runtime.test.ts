import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createScriptPool, yaoProcessResolver, type FunctionCall, type ScriptPool } from '../src/index.js';
import { HANG_MS, plan, runKernel } from './helpers.js';

/** A small Yao app: a hook file calling processes, an assistant script, an app script and a stub. */
const root = mkdtempSync(join(tmpdir(), 'agentest-yao-runtime-'));
const files: Record<string, string> = {
  'app.yao': '{}',
  'assistants/Shop/package.yao': '{}',
  'assistants/Shop/src/index.ts': `import { Process, log, time } from "@yao/runtime";
    export function Create(ctx: any, messages: any[]) {
      const total = Process("agents.shop.cart.Total", [2, 3]);
      log.Info("%s has %d items", "cart", total);
      return { total, greeting: Process("scripts.util.Greet", messages[0].content) };
    }
    export async function Later() {
      await Promise.resolve();
      return Process("agents.shop.cart.Spin");
    }
    export function Call(name: string, ...args: unknown[]) {
      return Process(name, ...args);
    }
    export function Talk(ctx: any) {
      const id = ctx.SendStream("Starting");
      ctx.Append(id, " step 1");
      ctx.End(id);
      ctx.trace.Info("checked cart", { items: 2 });
      return { sent: ctx.Send({ type: "text", props: { content: "Done" } }), id, keys: Object.keys(ctx) };
    }
    export function Remember(ctx: any) {
      return ctx.memory.user.Get("theme");
    }
    export function AskAgent(ctx: any) {
      const answer = ctx.agent.Call("tests.greeter", [{ role: "user", content: "hi" }], { skip: { history: true } });
      return { answer, theme: ctx.memory.user.Get("theme") };
    }
    export function Files() {
      return new FS("data").ReadFile("x.txt");
    }
    export function Pause(ms: number) {
      const started = Date.now();
      time.Sleep(ms);
      time.After(1000, "scripts.util.Greet", "later");
      return Date.now() - started;
    }`,
  'assistants/Shop/src/Cart.ts': `export function Total(items: number[]) {
      console.log("summing", items.length);
      return items.reduce((a, b) => a + b, 0);
    }
    export function Spin() { for (;;) {} }
    export function Nested() { return Process("scripts.util.Greet", "nested"); }`,
  'assistants/Shop/src/cart_test.ts': 'export function Total() { return "the test file must never be a process"; }',
  'scripts/util.ts': 'export function Greet(name: string) { log.Warn("greeting %q", name); return `hello ${name}`; }',
  'stubs/models.ts': 'export function Find(id: number) { return { id, name: "stubbed" }; }',
  'stubs/agent.ts':
    'export function Call(id: string, messages: any[]) { return { agent_id: id, content: `hello, ${messages[0].content}` }; }',
};
for (const [path, content] of Object.entries(files)) {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), content);
}
const HOOK = join(root, 'assistants/Shop/src/index.ts');

describe('Yao runtime in the sandbox', () => {
  let pool: ScriptPool;
  before(() => {
    pool = createScriptPool({ maxThreads: 1, memoryLimitMb: 64 });
  });
  after(async () => {
    await pool.close();
    rmSync(root, { recursive: true, force: true });
  });

  const processes = yaoProcessResolver({
    root,
    cwd: root,
    stubs: {
      'models.user.Find': { module: 'stubs/models.ts' },
      'Utils.Env.Get': { value: { region: 'eu' } },
      'ctx.agent.Call': { module: 'stubs/agent.ts' },
      'ctx.memory.user.Get': { value: 'dark' },
    },
    stubHint: (name) => `To test this hook, add ${name} to processes`,
  });
  const call = (fn: string, args: unknown[], extra: Partial<FunctionCall> = {}) =>
    pool.call({ file: HOOK, fn, args, timeoutMs: HANG_MS, yao: { processes, ctxArg: 0 }, ...extra });

  it('runs agents.* and scripts.* processes synchronously in the same worker', async () => {
    const result = await call('Create', [{}, [{ role: 'user', content: 'Ann' }]]);
    assert.equal(result.status, 'ok', result.status !== 'ok' && 'error' in result ? result.error : '');
    assert.deepEqual(result.status === 'ok' && result.value, { total: 5, greeting: 'hello Ann' });
    assert.deepEqual(result.logs, ['summing 2', 'cart has 5 items', 'WARN: greeting "Ann"']);
  });

  it('lets a process call further processes', async () => {
    const result = await call('Call', ['agents.shop.cart.Nested']);
    assert.deepEqual(result.status === 'ok' && result.value, 'hello nested');
  });

  it('runs stubs: a module function (named after the process) or a fixed value', async () => {
    assert.deepEqual(await call('Call', ['models.user.Find', 7]), {
      status: 'ok',
      value: { id: 7, name: 'stubbed' },
      logs: [],
    });
    const value = await call('Call', ['utils.env.get', 'REGION']);
    assert.deepEqual(value.status === 'ok' && value.value, { region: 'eu' });
  });

  it('fails an unknown process with a message saying why and how to stub it', async () => {
    const result = await call('Call', ['models.user.Get', 1]);
    assert.equal(result.status, 'error');
    assert.match(
      result.status === 'error' ? result.error : '',
      /Process\("models\.user\.Get"\) is not available under agentest: .*models\.\* needs a running Yao\. To test this hook, add models\.user\.Get to processes\./,
    );
  });

  it('names the files it tried for a missing script, and never runs a _test file', async () => {
    const missing = await call('Call', ['scripts.nope.Fn']);
    assert.match(
      missing.status === 'error' ? missing.error : '',
      /Process\("scripts\.nope\.Fn"\): script not found .*scripts\/nope\.ts/,
    );
    const test = await call('Call', ['agents.shop.cart_test.Total']);
    assert.match(
      test.status === 'error' ? test.error : '',
      /Process\("agents\.shop\.cart_test\.Total"\): no script file/,
    );
    const noFn = await call('Call', ['agents.shop.cart.Nope']);
    assert.match(noFn.status === 'error' ? noFn.error : '', /Cart\.ts has no function Nope/);
  });

  it('says Process needs a Yao hook when no resolver is attached', async () => {
    const result = await call('Call', ['scripts.util.Greet'], { yao: undefined });
    assert.match(
      result.status === 'error' ? result.error : '',
      /Process\("scripts\.util\.Greet"\) is not available here/,
    );
  });

  it("stops a process that loops, synchronously or after an await, at the caller's timeout", async () => {
    for (const [fn, args] of [
      ['Call', ['agents.shop.cart.Spin']],
      ['Later', []],
    ] as const) {
      const result = await call(fn, [...args], { timeoutMs: 300 });
      assert.equal(result.status, 'timeout', `${fn}: ${JSON.stringify(result)}`);
      assert.match(
        result.status === 'timeout' ? result.error : '',
        /^timeout after 300ms/,
        "stopped at the caller's timeout, not a default",
      );
    }
    assert.equal((await call('Call', ['agents.shop.cart.Total', [1]])).status, 'ok', 'the pool still works');
  });

  it("gives ctx Yao's output methods, recorded in the logs, and trace logging", async () => {
    const result = await call('Talk', [{ chat_id: 'c1', metadata: {} }]);
    assert.deepEqual(result.status === 'ok' && result.value, { sent: 'M2', id: 'M1', keys: ['chat_id', 'metadata'] });
    assert.deepEqual(result.logs, [
      'ctx.SendStream M1: Starting',
      'ctx.Append M1:  step 1',
      'ctx.End M1',
      'TRACE INFO: checked cart {"items":2}',
      'ctx.Send: Done',
    ]);
  });

  it('sleeps synchronously with time.Sleep, records time.After, and stops a sleep at the time limit', async () => {
    const slept = await call('Pause', [120]);
    assert.equal(slept.status, 'ok', JSON.stringify(slept));
    assert.ok(
      slept.status === 'ok' && (slept.value as number) >= 115,
      `slept ${slept.status === 'ok' && slept.value} ms`,
    );
    assert.deepEqual(slept.logs, [
      'time.After 1000ms: scripts.util.Greet ["later"] (not run: background processes need a running Yao)',
    ]);
    const tooLong = await call('Pause', [60_000], { timeoutMs: 300 });
    assert.equal(tooLong.status, 'timeout', JSON.stringify(tooLong));
    assert.match(
      tooLong.status === 'timeout' ? tooLong.error : '',
      /^timeout after 300ms/,
      'the sleep ended at the limit',
    );
  });

  it('runs ctx.agent, ctx.memory, … through processes stubs of the same name', async () => {
    const result = await call('AskAgent', [{}]);
    assert.deepEqual(result.status === 'ok' && result.value, {
      answer: { agent_id: 'tests.greeter', content: 'hello, hi' },
      theme: 'dark',
    });
  });

  it('fails unstubbed ctx.memory, ctx.agent and server-only globals with a clear message', async () => {
    const bare = yaoProcessResolver({ root, cwd: root, stubs: {} });
    const memory = await call('Remember', [{}], { yao: { processes: bare, ctxArg: 0 } });
    assert.match(
      memory.status === 'error' ? memory.error : '',
      /ctx\.memory\.user\.Get\(\) is not available when agentest runs a hook: .* stub it with the "processes" option: "ctx\.memory\.user\.Get": \{ value: <what it returns> \}, or \{ module: "\.\/stubs\.ts", export: "Get" \}/,
    );
    const agent = await call('AskAgent', [{}], { yao: { processes: bare, ctxArg: 0 } });
    assert.match(
      agent.status === 'error' ? agent.error : '',
      /ctx\.agent\.Call\(\) is not available when agentest runs a hook/,
    );
    const fs = await call('Files', []);
    assert.match(fs.status === 'error' ? fs.error : '', /FS is not available when agentest runs a script/);
  });
});

describe('Yao runtime in script tests', () => {
  it('lets a script test call Process (app scripts and stubs) and ctx.Send', async () => {
    const app = mkdtempSync(join(tmpdir(), 'agentest-yao-script-'));
    after(() => rmSync(app, { recursive: true, force: true }));
    const write = (path: string, content: string) => {
      mkdirSync(dirname(join(app, path)), { recursive: true });
      writeFileSync(join(app, path), content);
    };
    write('app.yao', '{}');
    write('assistants/calc/package.yao', '{}');
    write('assistants/calc/src/math.ts', 'export function Add(a: number, b: number) { return a + b; }');
    write(
      'assistants/calc/src/math_test.ts',
      `function TestAdd(t: any, ctx: any) {
  t.assert.Equal(Process("agents.calc.math.Add", 1, 2), 3);
  t.assert.Equal(Process("models.rate.Get"), 0.2);
  ctx.Send("checked");
}
function TestUnstubbed(t: any) {
  Process("models.rate.Find");
}`,
    );
    const { runs } = await runKernel(plan('scripts.calc.math', app), {
      processes: { 'models.rate.Get': { value: 0.2 } },
    });
    assert.equal(runs.get('TestAdd')?.status, 'passed', runs.get('TestAdd')?.error);
    assert.deepEqual(runs.get('TestAdd')?.logs, ['ctx.Send: checked']);
    assert.equal(runs.get('TestUnstubbed')?.status, 'error');
    assert.match(
      runs.get('TestUnstubbed')!.error!,
      /Process\("models\.rate\.Find"\) is not available under agentest: .* To test this script, stub it in agentest\.config\.ts: script\(\{ processes: \{ "models\.rate\.Find"/,
    );
  });
});
