import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import {
  calcMetrics,
  clearRegistered,
  fromJsonCases,
  fromRegistered,
  getRegistered,
  getTestStatus,
  judgeShipability,
  runSuite,
} from '../src/index.js';
import { measureKitRun, testMetrics } from '../src/kit-metrics.js';
import { metricsAdapter } from './fixtures/metrics/adapter.js';
import { FIXTURES, runKit } from './helpers.js';

/** Generous: only the HANG case waits for it, and it ends as a timeout either way. */
const TIMEOUT_MS = 3_000;

/**
 * The fixture's expected metrics, case by case, by the rule in docs/kit.md:
 * D1 passes (keywords 1, intent 1, score 5); D2's adapter throws and D3 times out, both measured as
 * failures (intent 0, score 0, keywords 0 for D2, which expects some); the failing test contributes
 * 0 for what its turn measured; the mixed test has keywords 0.5 on one turn, an unmatched intent on
 * the other, score 5; the test without ctx.run counts in the pass rate only.
 */
const EXPECTED = {
  keyword_hit_rate: (1 + 0 + 0 + 0.5) / 4,
  intent_match_rate: 1 / 5,
  quality_score: (5 + 5) / 5,
  pass_rate: 3 / 6,
};

// The test file registers its tests once, when first imported (modules are cached).
clearRegistered();
await import('./fixtures/metrics/tests/rule.test.js');
const registered = getRegistered();
clearRegistered();

async function viaApi(filter?: (name: string) => boolean) {
  const cases = JSON.parse(readFileSync(join(FIXTURES, 'metrics/cases.json'), 'utf8'));
  const tests = [...fromJsonCases(cases), ...fromRegistered(registered)].filter((t) => !filter || filter(t.name));
  return runSuite(tests, metricsAdapter(), { parallel: 6, timeoutMs: TIMEOUT_MS, print: false });
}

describe('kit metrics: one rule for the CLI and runSuite', () => {
  test('the CLI measures errored and timed-out cases as failures, and each test() as one case', async () => {
    const { outcome, results } = await runKit('metrics', metricsAdapter(), {
      plan: { parallel: 6, timeoutMs: TIMEOUT_MS },
    });
    assert.deepEqual(Object.fromEntries([...results].map(([id, r]) => [id.replace(/^.*#/, ''), r.status])), {
      D1: 'passed',
      D2: 'error',
      D3: 'timeout',
      'fails after good turns': 'failed',
      'mixed turns': 'passed',
      'no run': 'passed',
    });
    const { latency_ms: _latency, ...metrics } = outcome.summary.metrics!;
    assert.deepEqual(metrics, { keyword_hit_rate: 0.375, intent_match_rate: 0.2, quality_score: 2, pass_rate: 0.5 });
    assert.deepEqual(results.get('metrics/tests/rule.test.ts#fails after good turns')!.metrics, {
      keyword_hit_rate: 0,
      intent_match_rate: 0,
      quality_score: 0,
      latency_ms: results.get('metrics/tests/rule.test.ts#fails after good turns')!.metrics.latency_ms,
    });
    assert.deepEqual(results.get('metrics/tests/rule.test.ts#no run')!.metrics, {});
  });

  test('runSuite and calcMetrics give the same figures for the same suite', async () => {
    const results = await viaApi();
    assert.deepEqual(results.map(getTestStatus), ['PASS', 'FAIL', 'FAIL', 'FAIL', 'PASS', 'PASS']);
    const metrics = calcMetrics(results);
    assert.deepEqual(
      {
        keyword_hit_rate: metrics.keyword_hit_rate,
        intent_match_rate: metrics.intent_match_rate,
        quality_score: metrics.avg_quality_score,
        pass_rate: metrics.pass_rate,
      },
      {
        keyword_hit_rate: EXPECTED.keyword_hit_rate,
        intent_match_rate: EXPECTED.intent_match_rate,
        quality_score: EXPECTED.quality_score,
        pass_rate: EXPECTED.pass_rate,
      },
    );
    const failing = results[3]!;
    assert.equal(failing.intent_matched, false, 'a failed test never reads as a matched intent');
    assert.equal(failing.quality_score, 0, 'nor as a good score');
  });

  test('a thresholded metric the run did not measure is shown as not measured and does not decide', async () => {
    const { outcome } = await runKit('metrics', metricsAdapter(), {
      plan: { filter: /no run/, thresholds: { keyword_hit_rate: 0.9, intent_match_rate: 0.9 } },
    });
    assert.equal(outcome.summary.metrics?.keyword_hit_rate, undefined);
    assert.deepEqual(outcome.summary.verdict, { can_ship: true, issues: [] });
    assert.deepEqual(outcome.errors, []);

    const results = await viaApi((name) => name === 'no run');
    const metrics = calcMetrics(results);
    assert.equal(metrics.keyword_hit_rate, null);
    assert.deepEqual(judgeShipability(metrics, { keyword_hit_rate: 0.9, intent_match_rate: 0.9 }), {
      can_ship: true,
      issues: [],
    });
  });

  test('judgeShipability refuses a threshold that names no metric, and holds a pass_rate threshold as the CLI does', async () => {
    const metrics = calcMetrics(await viaApi((name) => name === 'D1' || name === 'no run'));
    for (const name of ['constructor', '__proto__', 'pass_rat']) {
      const thresholds: Record<string, number> = Object.create(null);
      thresholds[name] = 0.5;
      assert.throws(
        () => judgeShipability(metrics, thresholds),
        (error: Error & { code?: string }) => error.code === 'CONFIG_INVALID' && error.message.includes(`"${name}"`),
      );
    }
    assert.deepEqual(judgeShipability(metrics, { my_metric: 0.5 }).issues, [
      'no case reported a metric named "my_metric" (threshold ≥0.5)',
    ]);
    const withFailure = calcMetrics(await viaApi((name) => name === 'D1' || name === 'D2'));
    assert.deepEqual(judgeShipability(withFailure, { pass_rate: 0.5 }), { can_ship: true, issues: [] });
    assert.deepEqual(judgeShipability(withFailure, {}).issues, ['Pass Rate 50.0% < threshold 100.0%']);
  });
});

describe('the rule, case by case', () => {
  test('a test() from its turns: keywords over the turns that measured them, intent only if passed and every turn matched', () => {
    const turns = [
      { keyword_hit_rate: 0.5, intent_match_rate: 1, quality_score: 4, latency_ms: 10 },
      { intent_match_rate: 1, quality_score: 2, latency_ms: 30 },
    ];
    assert.deepEqual(testMetrics(turns, true), {
      keyword_hit_rate: 0.5,
      intent_match_rate: 1,
      quality_score: 3,
      latency_ms: 20,
    });
    assert.deepEqual(testMetrics(turns, false), {
      keyword_hit_rate: 0,
      intent_match_rate: 0,
      quality_score: 0,
      latency_ms: 20,
    });
    assert.deepEqual(testMetrics([...turns, { intent_match_rate: 0 }], true).intent_match_rate, 0);
    assert.deepEqual(
      testMetrics([{ latency_ms: 5 }], true),
      { latency_ms: 5 },
      'no turn measured keywords, intent or score',
    );
    assert.deepEqual(testMetrics([], false), {}, 'no ctx.run: the pass rate only');
  });

  test('data cases: passed keeps the evaluation, anything else is a failure, a run that skipped itself is neither', () => {
    const agent = {
      id: 'C1',
      kind: 'agent',
      input: '',
      messages: [],
      source: { file: 'cases.json' },
      data: { expected_keywords: ['a'] },
    };
    const run = (status: 'passed' | 'error' | 'timeout' | 'skipped', metrics: Record<string, number> = {}) => ({
      run: 1,
      status,
      duration_ms: 50,
      assertions: [],
      metrics,
    });
    assert.deepEqual(
      measureKitRun(
        run('passed', { keyword_hit_rate: 1, intent_match_rate: 1, quality_score: 5, latency_ms: 12 }),
        agent,
      ),
      { keyword_hit_rate: 1, intent_match_rate: 1, quality_score: 5, latency_ms: 12 },
    );
    assert.deepEqual(measureKitRun(run('timeout'), agent), {
      keyword_hit_rate: 0,
      intent_match_rate: 0,
      quality_score: 0,
      latency_ms: 50,
    });
    assert.deepEqual(measureKitRun(run('error'), { ...agent, data: {} }), {
      intent_match_rate: 0,
      quality_score: 0,
      latency_ms: 50,
    });
    assert.deepEqual(measureKitRun(run('skipped'), agent), {});
  });
});
