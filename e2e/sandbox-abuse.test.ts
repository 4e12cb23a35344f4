/**
 * Script sandbox abuse through the real CLI, beyond plugin-script's own isolation tests: a microtask
 * storm, a flood of pending promises, a hook that blocks its worker, bulk console output, and hooks
 * that throw. Each is contained — the other cases run and the process stays healthy — and reported
 * on the case it belongs to.
 */
import assert from 'node:assert/strict';
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { runCli, stackFrames, type CliRun } from './helpers/cli.js';
import { readEvents, resultsById, type Event } from './helpers/events.js';
import { workspace, writeCases, writeJson } from './helpers/workspace.js';

const ABUSE_TESTS = `// @ts-nocheck
export function TestMicrotaskStorm(t) {
  const spin = () => Promise.resolve().then(spin);
  spin();
  return new Promise((resolve) => setTimeout(resolve, 10));
}
export function TestPromiseFlood(t) {
  const pending = [];
  for (;;) pending.push(new Promise(() => {}));
}
export function TestBulkConsole(t) {
  for (let i = 0; i < 60000; i++) console.log('line ' + i + ' ' + 'x'.repeat(100));
  for (let i = 0; i < 20000; i++) console.error('err ' + i);
  t.assert.True(true);
}
export function TestRawStdout(t) {
  for (let i = 0; i < 1000; i++) globalThis.process?.stdout?.write?.('raw stdout ' + i + '\\n');
  t.assert.True(true);
}
export function TestFine(t) { t.assert.Equal(1, 1); }
`;

const HOOK_TESTS = `// @ts-nocheck
export function BeforeEach(t) { if (t.name === 'TestBlockedInBeforeEach') { for (;;) {} } }
export function AfterEach(t) { if (t.name === 'TestAfterEachThrows') throw new Error('AfterEach exploded'); }
export function TestBlockedInBeforeEach(t) { t.assert.True(true); }
export function TestAfterEachThrows(t) { t.assert.True(true); }
export function TestStillRuns(t) { t.assert.True(true); }
`;

const JSONL_HOOKS = `// @ts-nocheck
export function Before(ctx, testCase) { if (testCase.id === 'before-blocks') { for (;;) {} } return null; }
export function After(ctx, testCase, result) { if (testCase.id === 'after-throws') throw new Error('After hook exploded'); return null; }
`;

/** A Yao app with one assistant whose `src/` holds the abusive scripts. */
function app(name: string): string {
  const dir = workspace(name);
  mkdirSync(join(dir, 'assistants/abuse/src'), { recursive: true });
  mkdirSync(join(dir, 'assistants/abuse/tests'), { recursive: true });
  writeFileSync(join(dir, 'app.yao'), '{"name": "abuse-app"}\n');
  writeFileSync(join(dir, 'assistants/abuse/package.yao'), '{"name": "abuse", "connector": "mock"}\n');
  writeFileSync(join(dir, 'assistants/abuse/src/abuse_test.ts'), ABUSE_TESTS);
  writeFileSync(join(dir, 'assistants/abuse/src/hooks_test.ts'), HOOK_TESTS);
  writeFileSync(join(dir, 'assistants/abuse/src/env_test.ts'), JSONL_HOOKS);
  return dir;
}

/** A case's one run: with one run per case, its `result` line carries the run's own fields (`logs`, …). */
const runOf = (events: Event[], id: string) => events.find((e) => e.type === 'result' && e.id === id)! as Event;

/**
 * The `--timeout` of a run where tests that hang share the run with tests that must pass: the hanging
 * ones take all of it; the passing ones get far more than they need, even when they wait for a worker
 * that replaces a terminated one (the case's clock runs meanwhile, and a thread that loads the
 * TypeScript sources takes seconds to start on a busy machine).
 */
const SHARED_TIMEOUT = '10s';
const SHARED_TIMEOUT_MS = 10_000;

describe('script tests that abuse the sandbox', () => {
  let dir: string;
  let run: CliRun;
  let events: Event[];
  let byId: Map<string, Event>;
  let bulk: { run: CliRun; events: Event[]; byId: Map<string, Event> };
  before(async () => {
    dir = app('sandbox');
    run = await runCli(
      [
        'test',
        '-i',
        'scripts.abuse.abuse',
        '--run',
        '^Test(MicrotaskStorm|PromiseFlood|Fine)$',
        '--timeout',
        SHARED_TIMEOUT,
        '-o',
        'out.jsonl',
      ],
      { cwd: dir },
    );
    events = readEvents(join(dir, 'out.jsonl'));
    byId = resultsById(events, ['TestMicrotaskStorm', 'TestPromiseFlood', 'TestFine']);
    // Bulk output is work, not abuse: it runs with the default time limit.
    const bulkRun = await runCli(
      ['test', '-i', 'scripts.abuse.abuse', '--run', '^Test(BulkConsole|RawStdout)$', '-o', 'bulk.jsonl'],
      { cwd: dir },
    );
    const bulkEvents = readEvents(join(dir, 'bulk.jsonl'));
    bulk = { run: bulkRun, events: bulkEvents, byId: resultsById(bulkEvents, ['TestBulkConsole', 'TestRawStdout']) };
  });

  test('a microtask storm that starves the worker is stopped on its test (timeout, or the memory limit its chain of promises reaches)', () => {
    // The storm's promise chain grows without end: on a fast machine the memory limit may stop it
    // before the deadline does. Either way it ends as that test's own failure, with its reason.
    const storm = byId.get('TestMicrotaskStorm')!;
    assert.ok(['timeout', 'error'].includes(storm.status!), storm.status);
    assert.match(storm.error!, new RegExp(`timeout after ${SHARED_TIMEOUT}|memory`, 'i'));
  });

  test('a flood of pending promises is stopped (timeout or memory limit) on its test', () => {
    assert.ok(
      ['timeout', 'error'].includes(byId.get('TestPromiseFlood')!.status!),
      byId.get('TestPromiseFlood')!.status,
    );
    assert.ok(byId.get('TestPromiseFlood')!.error);
  });

  test('the tests after them still run and pass; exit code 1; no stack trace', () => {
    assert.equal(byId.get('TestFine')!.status, 'passed', byId.get('TestFine')!.error);
    assert.equal(run.code, 1, run.stderr);
    assert.deepEqual(stackFrames(run.stderr), []);
  });

  test('bulk console output is captured on its test, not printed over the terminal', () => {
    const { run, events, byId } = bulk;
    assert.equal(byId.get('TestBulkConsole')!.status, 'passed', byId.get('TestBulkConsole')!.error);
    assert.equal(byId.get('TestRawStdout')!.status, 'passed', byId.get('TestRawStdout')!.error);
    assert.equal(run.code, 0, run.stderr);
    assert.ok(!run.stdout.includes('line 59999'), 'console.log of a script does not reach the terminal');
    assert.ok(!run.stdout.includes('raw stdout 999'), 'process.stdout of a script does not reach the terminal');
    const logs = runOf(events, 'TestBulkConsole').logs as string[];
    assert.ok(Array.isArray(logs) && logs.length > 0, 'the logs are kept on the test');
  });

  test('bulk console output is bounded on the result (the event stream stays small)', () => {
    const logs = runOf(bulk.events, 'TestBulkConsole').logs as string[];
    assert.ok(logs.join('\n').length < 2_000_000, `logs hold ${logs.join('\n').length} chars`);
    assert.ok(
      statSync(join(dir, 'bulk.jsonl')).size < 5_000_000,
      `bulk.jsonl is ${statSync(join(dir, 'bulk.jsonl')).size} bytes`,
    );
  });
});

describe('hooks that block or throw', () => {
  test('script tests: a BeforeEach that blocks the worker is a timeout on its test; a throwing AfterEach is an error on its test; the next test runs', async () => {
    const dir = app('script-hooks');
    const run = await runCli(['test', '-i', 'scripts.abuse.hooks', '--timeout', SHARED_TIMEOUT, '-o', 'out.jsonl'], {
      cwd: dir,
    });
    const byId = resultsById(readEvents(join(dir, 'out.jsonl')), [
      'TestBlockedInBeforeEach',
      'TestAfterEachThrows',
      'TestStillRuns',
    ]);
    assert.equal(byId.get('TestBlockedInBeforeEach')!.status, 'timeout');
    assert.equal(byId.get('TestAfterEachThrows')!.status, 'error', byId.get('TestAfterEachThrows')!.error);
    assert.match(
      byId.get('TestAfterEachThrows')!.error!,
      /AfterEach exploded \(at assistants\/abuse\/src\/hooks_test\.ts:\d+:\d+\)/,
    );
    assert.equal(byId.get('TestStillRuns')!.status, 'passed', byId.get('TestStillRuns')!.error);
    assert.equal(run.code, 1);
    assert.deepEqual(stackFrames(run.stderr), []);
  });

  test('JSONL suites: an After hook that throws keeps the verdict and is reported on its case', async () => {
    const dir = app('jsonl-after');
    writeJson(dir, 'agentest.config.json', { script: { hooks: { after: 'env_test.After' } } });
    writeCases(join(dir, 'assistants/abuse/tests'), 'inputs.jsonl', [
      { id: 'fine', input: 'hello' },
      { id: 'after-throws', input: 'hello' },
      { id: 'fine2', input: 'hello' },
    ]);
    const run = await runCli(['test', '-i', 'assistants/abuse/tests/inputs.jsonl', '-n', 'echo', '-o', 'out.jsonl'], {
      cwd: dir,
    });
    assert.equal(run.code, 0, run.stderr);
    const byId = resultsById(readEvents(join(dir, 'out.jsonl')), ['fine', 'after-throws', 'fine2']);
    const hit = byId.get('after-throws')!;
    assert.equal(hit.status, 'passed');
    assert.ok(Array.isArray(hit.warnings), 'the failed After hook is on the case');
    // Its cases have no assertion, so each also carries that warning; the hook's is the one looked for.
    const hookWarnings = (warnings: unknown) => ((warnings ?? []) as string[]).filter((w) => /after hook/.test(w));
    assert.equal(hookWarnings(hit.warnings).length, 1, JSON.stringify(hit.warnings));
    assert.match(hookWarnings(hit.warnings)[0]!, /after hook failed: env_test\.After failed: .*After hook exploded/);
    assert.deepEqual(hookWarnings(byId.get('fine')!.warnings), []);
  });

  test('JSONL suites: a Before hook that blocks its worker is cut off at the case deadline and is a timeout on its case', async () => {
    const dir = app('jsonl-before');
    writeJson(dir, 'agentest.config.json', { script: { hooks: { before: 'env_test.Before' } } });
    writeCases(join(dir, 'assistants/abuse/tests'), 'inputs.jsonl', [
      { id: 'fine', input: 'hello' },
      { id: 'before-blocks', input: 'hello' },
    ]);
    const run = await runCli(
      [
        'test',
        '-i',
        'assistants/abuse/tests/inputs.jsonl',
        '-n',
        'echo',
        '--timeout',
        SHARED_TIMEOUT,
        '-o',
        'out.jsonl',
      ],
      { cwd: dir },
    );
    const byId = resultsById(readEvents(join(dir, 'out.jsonl')), ['fine', 'before-blocks']);
    // The case timeout covers the Before hook: it ends there, as a timeout naming the hook (the
    // kernel's deadline or the hook call's own limit of the same length, whichever fires first).
    const blocked = byId.get('before-blocks')!;
    assert.equal(blocked.status, 'timeout');
    assert.match(
      blocked.error!,
      new RegExp(
        `^timeout after ${SHARED_TIMEOUT} in the before hook$|^before hook failed: env_test\\.Before timed out: timeout after ${SHARED_TIMEOUT_MS}ms`,
      ),
    );
    assert.ok((blocked.duration_ms as number) >= SHARED_TIMEOUT_MS - 100, `${blocked.duration_ms} ms`);
    assert.equal(byId.get('fine')!.status, 'passed', byId.get('fine')!.error);
    assert.equal(run.code, 1);
  });
});
