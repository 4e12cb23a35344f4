import assert from 'node:assert/strict';
import { afterEach, beforeEach, test } from 'node:test';
import { readFileSync } from 'node:fs';
import {
  calcMetrics,
  clearRegistered,
  fromJsonCases,
  fromRegistered,
  getRegistered,
  getTestStatus,
  judgeShipability,
  printMetrics,
  printShipVerdict,
  printSummary,
  runSuite,
  test as test_,
} from '../src/index.js';
// @ts-expect-error plain JS fixture
import { createAdapter } from './fixtures/evaluator/adapter.js';

let printed: string[] = [];
const log = console.log;
beforeEach(() => {
  printed = [];
  console.log = (...args: unknown[]) => void printed.push(args.join(' '));
});
afterEach(() => {
  console.log = log;
});

const cases = [
  {
    case_id: 'C001',
    query: '我的订单已经三天了还没发货',
    expected_keywords: ['order_tracking'],
    intent: 'order_tracking',
    difficulty: 'easy',
  },
  {
    case_id: 'C002',
    query: 'App 升级后一直闪退',
    expected_keywords: ['technical_support', 'account_management', 'x', 'y'],
  },
  { case_id: 'C003', query: '暂时有问题，先跳过', skip: true, todo: true },
  { case_id: 'C004', query: 'CRASH please' },
  { case_id: 'C005', query: '退款', intent: 'order_tracking' },
];

test('an agentest-kit evaluator.js runs with only the import changed', async () => {
  clearRegistered();
  await import('./fixtures/evaluator/tests/advanced.test.js');
  const tests = [...fromJsonCases(cases), ...fromRegistered(getRegistered())];
  const results = await runSuite(tests, createAdapter(), { label: 'support', apiUrl: 'mock://' });
  const statuses = results.map((r) => `${r.case_id}:${getTestStatus(r)}`);
  assert.deepEqual(statuses, [
    'C001:PASS',
    'C002:PARTIAL',
    'C003:SKIP',
    'C004:FAIL',
    'C005:PARTIAL',
    'test/fixtures/evaluator/tests/advanced.test.js#技术支持:PASS'.replace('test/', 'packages/plugin-kit/test/'),
    'packages/plugin-kit/test/fixtures/evaluator/tests/advanced.test.js#追问场景:PASS',
    'packages/plugin-kit/test/fixtures/evaluator/tests/advanced.test.js#empty throw:FAIL',
    'packages/plugin-kit/test/fixtures/evaluator/tests/advanced.test.js#待修复 — 已知问题:SKIP',
    'packages/plugin-kit/test/fixtures/evaluator/tests/advanced.test.js#多意图组合场景:TODO',
  ]);
  assert.equal(results[3]!.error, 'connection reset', 'a throwing adapter fails its own case; the suite goes on');
  assert.match(results[7]!.error!, /Error thrown with an empty message/);
  assert.equal(results[0]!.elapsed_ms, 100, 'the async evaluate was awaited');
  assert.ok(
    printed.some((l) => l.includes(' PART ') && l.includes('C002')),
    printed.join('\n'),
  );
  assert.ok(printed.some((l) => l.includes('● error: connection reset')));

  const metrics = calcMetrics(results);
  assert.equal(metrics.total, 7);
  assert.equal(metrics.keyword_hit_rate, (1 + 0.25) / 2);
  // Data cases: C001 1, C002 1, C004 0 (the adapter threw), C005 0; function tests: 1 (one turn),
  // 1 (both turns matched); the failing test made no call and counts in the pass rate only.
  assert.equal(metrics.intent_match_rate, 0.6667);
  assert.equal(metrics.pass_rate, 0.7143);
  assert.deepEqual([metrics.passed, metrics.partial, metrics.failed], [3, 2, 2]);

  const thresholds = { keyword_hit_rate: 0.6, intent_match_rate: 0.6 };
  printSummary(results, getTestStatus);
  printMetrics(metrics, thresholds);
  const ship = judgeShipability(metrics, thresholds);
  printShipVerdict(ship);
  assert.deepEqual(ship, { can_ship: false, issues: ['Pass Rate 71.4% < threshold 100.0%'] });
  const text = printed.join('\n');
  assert.match(text, /Tests:  3 passed \| 2 partial \| 2 failed \| 2 skipped \| 1 todo  \(7 active \/ 10 total\)/);
  assert.match(text, /✓  Keyword Hit Rate   62\.5%  \(threshold ≥60\.0%\)/);
  assert.match(text, /VERDICT: DO NOT SHIP/);
  assert.doesNotMatch(text, /\x1b\[/, 'no colour when NO_COLOR is set or stdout is not a terminal');
});

test('runSuite times out a hung adapter and keeps input order under parallelism', async () => {
  const adapter = {
    async call(input: { query: string }) {
      if (input.query === 'hang') await new Promise(() => {});
      await new Promise((r) => setTimeout(r, input.query === 'slow' ? 30 : 1));
      return { elapsed_ms: 1, error: null, raw: input.query };
    },
    evaluate: (c: { raw: string }) => ({
      ...c,
      structure_ok: true,
      intent_matched: true,
      keyword_hits: [],
      keyword_hit_rate: null,
      quality_score: 5,
      failure_details: [],
    }),
  };
  const tests = fromJsonCases([
    { case_id: 'A', query: 'slow' },
    { case_id: 'B', query: 'hang' },
    { case_id: 'C', query: 'fast' },
  ]);
  // The limit is far above what the cases that answer need, even on a busy machine; only B waits it out.
  const results = await runSuite(tests, adapter, { parallel: 3, timeoutMs: 5_000, print: false });
  assert.deepEqual(
    results.map((r) => `${r.case_id}:${getTestStatus(r)}`),
    ['A:PASS', 'B:FAIL', 'C:PASS'],
  );
  assert.match(results[1]!.error!, /timeout after 5s/);
});

test('judgeShipability: equal to the threshold ships, N/A rates are not held against the run, an empty run does not ship', () => {
  const base = {
    total: 2,
    keyword_hit_rate: null,
    intent_match_rate: 0.8,
    avg_quality_score: 4,
    avg_latency_ms: 900,
    pass_rate: 1,
    passed: 2,
    partial: 0,
    failed: 0,
  };
  assert.deepEqual(judgeShipability(base, { keyword_hit_rate: 0.7, intent_match_rate: 0.8 }), {
    can_ship: true,
    issues: [],
  });
  assert.deepEqual(judgeShipability(base, { avg_latency_ms: 500, avg_quality_score: 4.5 }).issues, [
    'Avg Latency 900ms > threshold 500ms',
    'Avg Quality Score 4 < threshold 4.5',
  ]);
  assert.deepEqual(judgeShipability({ ...base, total: 0, pass_rate: null }, {}).issues, [
    'No case ran (threshold Pass Rate ≥100.0%)',
  ]);
});

test("judgeShipability on metrics in agentest-kit's documented shape (no pass_rate): only the thresholds judge", () => {
  const metrics = {
    total: 10,
    keyword_hit_rate: 0.7,
    intent_match_rate: 0.8,
    avg_quality_score: 4,
    avg_latency_ms: 100,
  };
  const thresholds = { keyword_hit_rate: 0.7, intent_match_rate: 0.8 };
  assert.deepEqual(judgeShipability(metrics as never, thresholds), { can_ship: true, issues: [] });
  assert.deepEqual(judgeShipability({ ...metrics, keyword_hit_rate: null } as never, thresholds), {
    can_ship: true,
    issues: [],
  });
  assert.deepEqual(
    judgeShipability({ ...metrics, keyword_hit_rate: 0.6, intent_match_rate: 0.7 } as never, thresholds).issues,
    ['Keyword Hit Rate 60.0% < threshold 70.0%', 'Intent Match Rate 70.0% < threshold 80.0%'],
  );
  // agentest-kit's empty suite: intent_match_rate 0, so it does not ship.
  const empty = { total: 0, keyword_hit_rate: null, intent_match_rate: 0, avg_quality_score: 0, avg_latency_ms: 0 };
  assert.equal(judgeShipability(empty as never, thresholds).can_ship, false);
});

test('fromJsonCases and fromRegistered keep every field; bad entries are named', () => {
  const [c] = fromJsonCases([{ case_id: 'C1', query: 'q', notes: 'n', custom: 1 }]);
  assert.deepEqual(c, {
    id: 'C1',
    name: 'C1',
    status: 'active',
    query: 'q',
    expected_keywords: [],
    notes: 'n',
    fn: null,
    data: { query: 'q', notes: 'n', custom: 1 },
  });
  assert.throws(() => fromJsonCases([{ query: 'q' }]), /cases\[0\]: case #1: case_id is required/);
  assert.throws(
    () =>
      fromJsonCases([
        { case_id: 'A', query: '' },
        { case_id: 'A', query: '' },
      ]),
    /cases\[1\]: case_id "A" is used twice/,
  );
  const [r] = fromRegistered([
    {
      name: 'n',
      status: 'active',
      fn: null,
      query: 'q',
      expected_keywords: [],
      difficulty: 'hard',
      notes: 'x',
      file: `${process.cwd()}/t.test.js`,
    },
  ]);
  assert.equal(r!.id, 't.test.js#n');
  assert.equal(r!.difficulty, 'hard');
});

test('an evaluation with an empty error or a string structure_ok fails, in runSuite as in the CLI', async () => {
  const adapter = {
    call: async (input: { query: string }) => ({ elapsed_ms: 1, error: null, raw: input.query }),
    evaluate: (c: { raw: string }) => ({
      ...c,
      error: c.raw === 'empty error' ? '' : null,
      structure_ok: c.raw === 'string structure' ? 'false' : true,
      intent_matched: true,
      keyword_hits: [],
      keyword_hit_rate: null,
      quality_score: 5,
      failure_details: [],
    }),
  };
  const tests = fromJsonCases([
    { case_id: 'A', query: 'empty error' },
    { case_id: 'B', query: 'string structure' },
    { case_id: 'C', query: 'fine' },
  ]);
  const results = await runSuite(tests, adapter, { print: false });
  assert.deepEqual(
    results.map((r) => `${r.case_id}:${getTestStatus(r)}`),
    ['A:FAIL', 'B:FAIL', 'C:PASS'],
  );
});

test('runSuite honours test.only, and refuses it on CI unless allowOnly', async () => {
  const adapter = {
    call: async (input: { query: string }) => ({ elapsed_ms: 1, error: null, raw: input.query }),
    evaluate: (c: { raw: string }) => ({
      ...c,
      structure_ok: true,
      intent_matched: true,
      keyword_hits: [],
      keyword_hit_rate: null,
      quality_score: 5,
      failure_details: [],
    }),
  };
  clearRegistered();
  test_('ordinary', async () => {});
  test_.only('focused', async () => {});
  const tests = [...fromJsonCases([{ case_id: 'J1', query: 'q' }]), ...fromRegistered(getRegistered())];
  clearRegistered();
  assert.deepEqual(
    tests.map((t) => t.only ?? false),
    [false, false, true],
    'fromRegistered keeps the .only mark',
  );

  const ci = process.env.CI;
  try {
    delete process.env.CI;
    const results = await runSuite(tests, adapter, { print: false });
    assert.deepEqual(
      results.map((r) => `${r.case_id.replace(/^.*#/, '')}:${getTestStatus(r)}`),
      ['J1:SKIP', 'ordinary:SKIP', 'focused:PASS'],
    );
    process.env.CI = 'true';
    await assert.rejects(runSuite(tests, adapter, { print: false }), (error: Error & { code?: string }) => {
      assert.equal(error.code, 'ONLY_FORBIDDEN');
      assert.match(error.message, /run-suite\.test\.ts:\d+: test\.only\("focused"\)/);
      const line = Number(/run-suite\.test\.ts:(\d+)/.exec(error.message)![1]);
      assert.match(readFileSync(new URL(import.meta.url), 'utf8').split('\n')[line - 1]!, /test_\.only\('focused'/);
      return true;
    });
    const allowed = await runSuite(tests, adapter, { print: false, allowOnly: true });
    assert.equal(getTestStatus(allowed[2]!), 'PASS');
  } finally {
    if (ci === undefined) delete process.env.CI;
    else process.env.CI = ci;
  }
});
