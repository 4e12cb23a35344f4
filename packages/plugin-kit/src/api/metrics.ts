import { gradeEvaluation } from '@agentest/plugin-agent';
import { formatKitMetric as formatMetric, kitMetricLabel as metricLabel, kitMetricValue } from '@agentest/reporter-console';
import type { Metrics, ShipabilityVerdict, TestResult, TestStatus, Thresholds } from './types.js';

/**
 * agentest-kit's rules, in its order: SKIP, TODO, then the grade the CLI gives the same evaluation
 * (FAIL for any present error or a structure_ok that is not true, PARTIAL, PASS). A function test is
 * PASS or FAIL.
 */
export function getTestStatus(result: TestResult): TestStatus {
  if (result.skipped) return 'SKIP';
  if (result.todo) return 'TODO';
  if (result.is_fn_based) return result.error === null || result.error === undefined ? 'PASS' : 'FAIL';
  return gradeEvaluation(result).grade;
}

/**
 * The seed's metrics over active cases (skip and todo excluded): the mean keyword hit rate of the
 * cases that have one, the share of cases whose intent matched, the mean quality score and latency.
 * A function test counts only with what its agent calls measured, never with a pass turned into a
 * perfect score (agentest-kit counted every passing function test as a matched intent scoring 5).
 */
export function calcMetrics(results: readonly TestResult[]): Metrics {
  const active = results.filter((r) => !r.skipped && !r.todo);
  const counts = { passed: 0, partial: 0, failed: 0 };
  const khr: number[] = [];
  const imr: number[] = [];
  const quality: number[] = [];
  const latency: number[] = [];
  for (const r of active) {
    const status = getTestStatus(r);
    if (status === 'PASS') counts.passed++;
    else if (status === 'PARTIAL') counts.partial++;
    else counts.failed++;
    if (r.is_fn_based) {
      const m = r.metrics ?? {};
      push(khr, m.keyword_hit_rate);
      push(imr, m.intent_match_rate);
      push(quality, m.quality_score);
      push(latency, m.latency_ms);
      continue;
    }
    push(khr, r.keyword_hit_rate);
    imr.push(r.intent_matched ? 1 : 0);
    quality.push(typeof r.quality_score === 'number' && Number.isFinite(r.quality_score) ? r.quality_score : 0);
    push(latency, r.elapsed_ms);
  }
  return { total: active.length, keyword_hit_rate: mean(khr), intent_match_rate: mean(imr), avg_quality_score: mean(quality), avg_latency_ms: mean(latency), ...counts };
}

/**
 * Judges metrics against thresholds: each given threshold is a minimum (a maximum for `_ms` metrics);
 * a metric nobody measured is shown as N/A and not held against the run, as in agentest-kit. Unlike
 * agentest-kit, failed cases block shipping, and so does a run with no active case.
 */
export function judgeShipability(metrics: Metrics, thresholds: Thresholds = {}): ShipabilityVerdict {
  const issues: string[] = [];
  if (metrics.total === 0) issues.push('No active case ran');
  if (metrics.failed > 0) issues.push(`${metrics.failed} of ${metrics.total} case${metrics.total === 1 ? '' : 's'} failed`);
  for (const [name, limit] of Object.entries(thresholds)) {
    const value = metricValue(metrics, name);
    if (typeof value !== 'number' || typeof limit !== 'number') continue;
    const isMax = name.endsWith('_ms');
    if (isMax ? value > limit : value < limit) issues.push(`${metricLabel(name)} ${formatMetric(name, value)} ${isMax ? '>' : '<'} threshold ${formatMetric(name, limit)}`);
  }
  return { can_ship: issues.length === 0, issues };
}

/** Metric labels and values print as the kit format does (`Keyword Hit Rate`, `72.0%`, `812ms`). */
export { formatMetric, metricLabel };

/** A metric by name; the kernel's `quality_score` / `latency_ms` stand for the kit's averages. */
export const metricValue = (metrics: Metrics, name: string): unknown => kitMetricValue(metrics, name);

function push(list: number[], value: unknown): void {
  if (typeof value === 'number' && Number.isFinite(value)) list.push(value);
}

function mean(values: number[]): number | null {
  return values.length ? values.reduce((a, b) => a + b, 0) / values.length : null;
}
