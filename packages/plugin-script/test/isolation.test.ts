import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createScriptPool, type ScriptPool } from '../src/index.js';
import { APP, HANG_MS } from './helpers.js';

const ISO = join(APP, 'assistants/iso/src/iso_test.ts');
/** The limit of the tests that never end by themselves. */
const TIMEOUT = 400;
/**
 * A timer may fire up to 2 ms before `performance.now()` says its time is up: libuv keeps its loop time in whole
 * milliseconds, read from a clock that may lag one tick (1 ms) behind on kernels where the coarse clock is that fine.
 */
const AT_TIMEOUT = TIMEOUT - 2;

describe('sandbox isolation', () => {
  let pool: ScriptPool;
  before(() => {
    pool = createScriptPool({ maxThreads: 1, memoryLimitMb: 32 });
  });
  after(() => pool.close());

  /** Runs a test of the fixture; only the ones that never end get the short `TIMEOUT`. */
  const run = (fn: string, timeoutMs = HANG_MS) => pool.test({ file: ISO, fn, args: [{}], timeoutMs });
  const passes = async () => {
    const outcome = await run('TestPasses');
    assert.equal(outcome.status, 'passed', outcome.error);
  };

  it('stops a synchronous infinite loop at its timeout and keeps the worker', async () => {
    const outcome = await run('TestSyncLoop', TIMEOUT);
    assert.equal(outcome.status, 'timeout');
    assert.match(
      outcome.error!,
      new RegExp(`^timeout after ${TIMEOUT}ms`),
      'stopped at its own timeout, not the 30s default',
    );
    assert.ok(outcome.durationMs >= AT_TIMEOUT, `ran to its timeout: ${outcome.durationMs}ms`);
    await passes();
  });

  it('stops a loop after an await by replacing the blocked worker', async () => {
    const outcome = await run('TestAsyncLoop', TIMEOUT);
    assert.equal(outcome.status, 'timeout');
    assert.match(
      outcome.error!,
      new RegExp(`^timeout after ${TIMEOUT}ms \\(the script blocked its worker, which was replaced\\)`),
    );
    assert.ok(outcome.durationMs >= AT_TIMEOUT, `ran to its timeout: ${outcome.durationMs}ms`);
    await passes();
  });

  it('stops a promise that never settles', async () => {
    const outcome = await run('TestHangs', TIMEOUT);
    assert.equal(outcome.status, 'timeout');
    assert.match(outcome.error!, new RegExp(`^timeout after ${TIMEOUT}ms`));
  });

  it('reports unbounded allocation as an error at the per-worker memory limit', async () => {
    // No short timeout here: however slowly the machine allocates, the memory limit ends the test.
    const outcome = await run('TestMemoryBomb');
    assert.equal(outcome.status, 'error', outcome.error);
    assert.match(outcome.error!, /ran out of memory \(limit 32 MB per worker\)/);
    await passes();
  });

  it('turns process.exit() into an error on the test', async () => {
    const outcome = await run('TestProcessExit');
    assert.deepEqual([outcome.status, outcome.error], ['error', 'process.exit(7) called: a script cannot end the run']);
  });

  it('blames an exception thrown in a timer on its test, with the source line', async () => {
    const outcome = await run('TestTimerThrows');
    assert.equal(outcome.status, 'error');
    assert.equal(outcome.error, 'uncaught exception in a timer: late failure');
    assert.match(outcome.location!, /iso_test\.ts:7:\d+$/);
  });

  it('reports a rejected promise nobody awaited', async () => {
    const outcome = await run('TestUnhandledRejection');
    assert.deepEqual([outcome.status, outcome.error], ['error', 'unhandled promise rejection: nobody awaited me']);
  });

  it('reports thrown non-Errors', async () => {
    assert.equal((await run('TestThrowsString')).error, 'thrown string: plain string');
    assert.equal((await run('TestThrowsUndefined')).error, 'thrown undefined');
  });

  it('maps a thrown error to the line of the TypeScript source', async () => {
    const outcome = await run('TestThrowsError');
    assert.equal(outcome.error, "TypeError: Cannot read properties of null (reading 'total')");
    assert.match(outcome.location!, /assistants\/iso\/src\/iso_test\.ts:13:\d+$/);
  });

  it('gives each test a fresh global scope: no state leaks between files or tests', async () => {
    const a = join(APP, 'assistants/leak/src/a_test.ts');
    const b = join(APP, 'assistants/leak/src/b_test.ts');
    for (const [file, fn] of [
      [a, 'TestWrites'],
      [b, 'TestReads'],
      [a, 'TestWrites'],
      [b, 'TestReads'],
    ] as const) {
      const outcome = await pool.test({ file, fn, args: [], timeoutMs: HANG_MS });
      assert.equal(outcome.status, 'passed', `${fn}: ${outcome.error}`);
    }
  });
});

describe('pool.call', () => {
  let pool: ScriptPool;
  let dir: string;
  before(() => {
    pool = createScriptPool({ maxThreads: 2 });
    dir = mkdtempSync(join(tmpdir(), 'agentest-call-'));
    writeFileSync(join(dir, 'util.ts'), 'function double(n: number) { return n * 2; }\n');
    writeFileSync(
      join(dir, 'index.ts'),
      [
        'export function Create(ctx: any, messages: any[]) { return { messages, user: ctx.user, twice: double(2) }; }',
        'async function Next(ctx: any, payload: any) { const reply = await __host.agentRun(payload.q); console.log("got", reply); return { data: reply }; }',
        'function Broken() { return (null as any).x; }',
        'function Rejects() { return __host.fails(); }',
        '(globalThis as any).__runtimeDispatch = (name: string) => `dispatched ${name}`;',
      ].join('\n'),
    );
    mkdirSync(join(dir, 'broken'));
    writeFileSync(join(dir, 'broken/bad.ts'), 'export function A() {\n  return 1 +;\n}\n');
  });
  after(() => pool.close());

  it('calls an exported function with cloned arguments; siblings are in scope', async () => {
    const result = await pool.call({
      file: join(dir, 'index.ts'),
      fn: 'Create',
      args: [{ user: 'u1' }, [{ role: 'user', content: 'hi' }]],
      timeoutMs: HANG_MS,
    });
    assert.deepEqual(result, {
      status: 'ok',
      value: { messages: [{ role: 'user', content: 'hi' }], user: 'u1', twice: 4 },
      logs: [],
    });
  });

  it('lets the script call async host functions on the main thread', async () => {
    const seen: unknown[] = [];
    const result = await pool.call({
      file: join(dir, 'index.ts'),
      fn: 'Next',
      args: [{}, { q: 'ping' }],
      timeoutMs: HANG_MS,
      host: { agentRun: async (q: unknown) => (seen.push(q), `pong:${q}`) },
    });
    assert.deepEqual(result, { status: 'ok', value: { data: 'pong:ping' }, logs: ['got pong:ping'] });
    assert.deepEqual(seen, ['ping']);
  });

  it('passes a host function failure to the script as a rejection', async () => {
    const result = await pool.call({
      file: join(dir, 'index.ts'),
      fn: 'Rejects',
      args: [],
      timeoutMs: HANG_MS,
      host: {
        fails: async () => {
          throw new Error('no agent');
        },
      },
    });
    assert.deepEqual([result.status, (result as { error: string }).error], ['error', 'no agent']);
  });

  it('reports a missing function as missing (hooks are optional)', async () => {
    assert.deepEqual(await pool.call({ file: join(dir, 'index.ts'), fn: 'Done', args: [], timeoutMs: HANG_MS }), {
      status: 'missing',
      logs: [],
    });
  });

  it('finds a function a runtime module put on globalThis', async () => {
    const result = await pool.call({
      file: join(dir, 'index.ts'),
      fn: '__runtimeDispatch',
      args: ['t1'],
      timeoutMs: HANG_MS,
    });
    assert.deepEqual(result, { status: 'ok', value: 'dispatched t1', logs: [] });
  });

  it('reports a throw with the source location', async () => {
    const result = await pool.call({ file: join(dir, 'index.ts'), fn: 'Broken', args: [], timeoutMs: HANG_MS });
    assert.equal(result.status, 'error');
    assert.match(
      (result as { error: string }).error,
      /^TypeError: Cannot read properties of null \(reading 'x'\) \(at .*index\.ts:3:\d+\)$/,
    );
  });

  it('bundles module aliases, so a test() file can import a sandbox runtime that dispatches by name', async () => {
    const runtime = join(dir, 'runtime', 'sandbox-runtime.js');
    mkdirSync(join(dir, 'runtime'));
    writeFileSync(
      runtime,
      [
        'const registry = new Map();',
        'export function test(title, fn) { registry.set(title, fn); }',
        'globalThis.__agentestList = () => [...registry.keys()];',
        'globalThis.__agentestRun = async (title) => registry.get(title)({ run: (q) => __host.agentRun(q) });',
      ].join('\n'),
    );
    mkdirSync(join(dir, 'kit'));
    writeFileSync(
      join(dir, 'kit', 'support.test.ts'),
      "import { test } from '@agentest/test';\ntest('greets', async (ctx) => (await ctx.run('hi')).toUpperCase());\ntest('second', () => 2);\n",
    );
    const base = {
      file: join(dir, 'kit', 'support.test.ts'),
      timeoutMs: HANG_MS,
      alias: { '@agentest/test': runtime },
    };
    assert.deepEqual(await pool.call({ ...base, fn: '__agentestList', args: [] }), {
      status: 'ok',
      value: ['greets', 'second'],
      logs: [],
    });
    const result = await pool.call({
      ...base,
      fn: '__agentestRun',
      args: ['greets'],
      host: { agentRun: async (q: unknown) => `hello ${q}` },
    });
    assert.deepEqual(result, { status: 'ok', value: 'HELLO HI', logs: [] });
  });

  it('reports a syntax error with file and line instead of throwing', async () => {
    const result = await pool.call({ file: join(dir, 'broken/bad.ts'), fn: 'A', args: [], timeoutMs: HANG_MS });
    assert.equal(result.status, 'error');
    assert.match((result as { error: string }).error, /broken\/bad\.ts:2:\d+: Unexpected ";"/);
  });
});
