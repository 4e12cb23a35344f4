import type { Execution, TestCase } from '@agentest/kernel';
import type { Turn } from './conversation.js';

/**
 * The one rule for what a kit case contributes to the run's metrics, used by the CLI (as the kit
 * suite's `measure`) and by `runSuite` / `calcMetrics` alike. Skip and todo never get here.
 *
 * A data case (cases.json, `test(name, data)`) that passed (PASS or PARTIAL) reports what its
 * evaluation measured. One that did not pass (FAIL, an adapter that threw, a timeout) is measured as
 * a failure: intent 0, quality 0, and a keyword hit rate of 0 when the case expects keywords.
 *
 * A test function is one case: see `testMetrics`. Its `ctx.metric` values (the executor's metrics)
 * are kept, except where its turns measured the same name.
 */
export function measureKitRun(execution: Execution, testCase: TestCase): Record<string, number> {
  // A run that skipped itself measured nothing, and is no failure either.
  if (execution.status === 'skipped') return execution.metrics;
  if (testCase.kind === 'spec') {
    const turns = Array.isArray(execution.details?.turns) ? (execution.details.turns as Turn[]) : [];
    return {
      ...execution.metrics,
      ...testMetrics(
        turns.map((t) => t.metrics),
        execution.status === 'passed',
      ),
    };
  }
  const latency = execution.metrics.latency_ms ?? execution.duration_ms;
  if (execution.status === 'passed') return { ...execution.metrics, latency_ms: latency };
  return failedCase(expectsKeywords(testCase) || typeof execution.metrics.keyword_hit_rate === 'number', latency);
}

/**
 * A test function's metrics from its `ctx.run` turns: the keyword hit rate is the mean over the turns
 * that measured one (unmeasured when none did); the intent is measured when at least one turn measured
 * it, and matched only if the test passed and every measured turn matched; the quality score is the
 * mean over the turns that scored; the latency is the mean turn latency. A failed test never
 * contributes a good score: each measured rate and score is 0. A test with no `ctx.run` reports no
 * metric, so it counts in the pass rate only.
 */
export function testMetrics(turns: readonly Record<string, number>[], passed: boolean): Record<string, number> {
  const out: Record<string, number> = {};
  const keyword = values(turns, 'keyword_hit_rate');
  if (keyword.length) out.keyword_hit_rate = passed ? mean(keyword) : 0;
  const intent = values(turns, 'intent_match_rate');
  if (intent.length) out.intent_match_rate = passed && intent.every((v) => v === 1) ? 1 : 0;
  const quality = values(turns, 'quality_score');
  if (quality.length) out.quality_score = passed ? mean(quality) : 0;
  const latency = values(turns, 'latency_ms');
  if (latency.length) out.latency_ms = mean(latency);
  return out;
}

/** A data case that did not pass: no intent match, quality 0, keywords 0 when it was to hit some. */
export function failedCase(measuresKeywords: boolean, latencyMs: number | undefined): Record<string, number> {
  return {
    ...(measuresKeywords ? { keyword_hit_rate: 0 } : {}),
    intent_match_rate: 0,
    quality_score: 0,
    ...(typeof latencyMs === 'number' && Number.isFinite(latencyMs) ? { latency_ms: latencyMs } : {}),
  };
}

function expectsKeywords(testCase: TestCase): boolean {
  const keywords = (testCase.data as { expected_keywords?: unknown } | undefined)?.expected_keywords;
  return Array.isArray(keywords) && keywords.length > 0;
}

function values(turns: readonly Record<string, number>[], name: string): number[] {
  return turns.map((t) => t[name]).filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
}

function mean(list: readonly number[]): number {
  return list.reduce((a, b) => a + b, 0) / list.length;
}
