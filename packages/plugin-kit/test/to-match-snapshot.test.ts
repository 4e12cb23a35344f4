/**
 * `expect(x).toMatchSnapshot(name?)` in test() files (run in the sandbox, the snapshots on the main
 * thread) and in live functions (runSuite's path): the store, files, `--update`, CI rule and diff of
 * the `snapshot` assertion; a mismatch fails the test whether or not the test awaited the check.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it, test } from 'node:test';
import { expect } from '@agentest/expect';
import { createKernel, type AgentestPlugin, type CaseResult, type TestCase } from '@agentest/kernel';
import { agents, type Adapter } from '@agentest/plugin-agent';
import snapshotPlugin, { attachSnapshotStore, SnapshotStore } from '@agentest/snapshot';
import { kit } from '../src/index.js';
import { KitSnapshots, withKitSnapshots } from '../src/kit-snapshot.js';
import { plan } from './helpers.js';

const HANG_MS = 60_000;

const TEST_FILE = `import { test, expect } from '@agentest/test';

test('awaited', async (ctx) => {
  const reply = await ctx.run('hello');
  await expect(reply.raw).toMatchSnapshot();
  await expect({ b: 2, a: 1 }).toMatchSnapshot('shape');
  ctx.log('after the snapshots');
});

test('not awaited', async (ctx) => {
  const reply = await ctx.run('hello');
  expect(reply.raw).toMatchSnapshot();
  ctx.log('went on');
});
`;

/** An agent whose answer the test changes between runs. */
function echo(state: { answer: string }): Adapter {
  return {
    async call(input: Record<string, unknown>) {
      return { case_id: input.case_id, query: input.query, elapsed_ms: 1, error: null, raw: state.answer };
    },
  };
}

describe('toMatchSnapshot in a test() file', () => {
  const root = mkdtempSync(join(tmpdir(), 'agentest-kit-snap-'));
  mkdirSync(join(root, 'tests'));
  writeFileSync(join(root, 'tests/snap.test.ts'), TEST_FILE);
  const file = join(root, 'tests/__snapshots__/snap.test.snap.jsonl');
  const state = { answer: 'hello there' };
  after(() => rmSync(root, { recursive: true, force: true }));

  async function run(options: { ci?: boolean; update?: boolean } = {}) {
    const results = new Map<string, CaseResult>();
    const collector: AgentestPlugin = {
      name: 'test:collector',
      apply: ({ hooks }) =>
        hooks.report.tap('test:collector', (e) => void (e.type === 'result' && results.set(e.name ?? e.id, e))),
    };
    const kernel = createKernel({
      plugins: [
        agents({ agents: { echo: echo(state) } }),
        kit({ agent: 'echo' }),
        snapshotPlugin({ ci: options.ci ?? false, update: options.update ?? false, cwd: root }),
        collector,
      ],
    });
    const outcome = await kernel.run(plan('.', { input: { input: '.', cwd: root }, timeoutMs: HANG_MS }));
    return { results, outcome };
  }

  it(
    'in CI a missing snapshot fails the test, awaited or not, and nothing is written',
    { timeout: HANG_MS },
    async () => {
      const { results } = await run({ ci: true });
      assert.equal(results.get('awaited')!.status, 'failed');
      assert.match(
        results.get('awaited')!.error!,
        /^snapshot #1 of case .+ is not in tests\/__snapshots__\/snap\.test\.snap\.jsonl, and CI is set/,
      );
      const loose = results.get('not awaited')!;
      assert.equal(loose.status, 'failed');
      assert.deepEqual(loose.runs[0]!.logs, ['went on']);
      assert.equal(existsSync(file), false);
    },
  );

  it('writes the snapshots, then fails a changed value with a diff', { timeout: HANG_MS }, async () => {
    const first = await run();
    assert.equal(first.results.get('awaited')!.status, 'passed', first.results.get('awaited')!.error);
    assert.equal(first.results.get('not awaited')!.status, 'passed');
    assert.equal(first.outcome.summary.snapshots?.written, 3);
    const lines = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { key: string; value: unknown });
    assert.deepEqual(
      lines.map((l) => [l.key, l.value]).sort(),
      [
        ['#1', 'hello there'],
        ['#1', 'hello there'],
        ['shape', { a: 1, b: 2 }],
      ].sort(),
    );

    state.answer = 'hi there';
    const before = readFileSync(file, 'utf8');
    const second = await run();
    const diff =
      /value does not match snapshot #1 in tests\/__snapshots__\/snap\.test\.snap\.jsonl \(run with --update to accept it\):\n--- snapshot\n\+\+\+ output\n- hello there\n\+ hi there/;
    const awaited = second.results.get('awaited')!;
    assert.equal(awaited.status, 'failed');
    assert.match(awaited.error!, diff);
    assert.match(awaited.error!, /\(at \S*tests\/snap\.test\.ts:5:\d+\)$/, "the test's line, not the matcher's");
    assert.deepEqual(awaited.runs[0]!.logs ?? [], [], 'an awaited mismatch stops the test');
    const loose = second.results.get('not awaited')!;
    assert.equal(loose.status, 'failed');
    assert.match(loose.error!, diff);
    assert.deepEqual(
      loose.runs[0]!.assertions.map((a) => [a.type, a.expected, a.actual]),
      [['expect.toMatchSnapshot', 'hello there', 'hi there']],
    );
    assert.equal(readFileSync(file, 'utf8'), before);
  });

  it('--update accepts the new value', { timeout: HANG_MS }, async () => {
    const { results, outcome } = await run({ update: true });
    assert.equal(results.get('awaited')!.status, 'passed');
    assert.equal(outcome.summary.snapshots?.updated, 2);
    assert.doesNotMatch(readFileSync(file, 'utf8'), /hello there/);
  });
});

test('live test functions: each test numbers its own snapshots, and a mismatch fails it when it ends', async () => {
  const root = mkdtempSync(join(tmpdir(), 'agentest-kit-snap-live-'));
  try {
    const runPlan = plan('x', { input: { input: 'x', cwd: root } });
    const store = new SnapshotStore({ update: false, ci: false, cwd: root });
    attachSnapshotStore(runPlan, store);
    const testCase = (id: string) => ({ id, source: { file: 'live.ts' } }) as TestCase;
    const a = new KitSnapshots(runPlan, testCase('a'));
    const b = new KitSnapshots(runPlan, testCase('b'));
    await Promise.all([
      withKitSnapshots(a.runner, () => expect('A1').toMatchSnapshot()),
      withKitSnapshots(b.runner, () => expect('B1').toMatchSnapshot()),
    ]);
    assert.deepEqual(await store.check('live.ts', 'b', '#1', 'B1'), { status: 'matched' });

    const again = new KitSnapshots(runPlan, testCase('a'));
    withKitSnapshots(again.runner, () => void expect('changed').toMatchSnapshot());
    const failures: never[] = [];
    const ending = await again.settle({ status: 'passed' as const }, failures);
    assert.equal(ending.status, 'failed');
    assert.match(ending.error!, /value does not match snapshot #1/);
    assert.equal(failures.length, 1);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('toMatchSnapshot outside agentest, negated or with a kept name says why', async () => {
  await assert.rejects(expect('hi').toMatchSnapshot(), /no snapshot store here|ran outside an agentest test/);
  await assert.rejects(expect('hi').not.toMatchSnapshot(), /not\.toMatchSnapshot is not a check/);
  await assert.rejects(expect('hi').toMatchSnapshot('#3'), /"#3" is kept for unnamed snapshots/);
});
