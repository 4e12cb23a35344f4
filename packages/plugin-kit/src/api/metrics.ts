import { SummaryBuilder } from '@agentest/kernel/results';
import { type CaseResult } from '@agentest/kernel';
import { checkThresholdNames, judge } from '@agentest/report';
import { gradeEvaluation } from '@agentest/plugin-agent';
import {
  formatKitMetric as formatMetric,
  kitMetricLabel as metricLabel,
  kitMetricValue,
} from '../console/kit-format.js';
import { failedCase } from '../kit-metrics.js';
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
 * The run's metrics over active cases (skip and todo excluded), computed as the CLI computes them:
 * each case's metrics by the kit rule (`measureKitRun`, which `runSuite` applied and left in
 * `metrics`), averaged by the kernel's summary over the cases that report each one. A case that
 * errored or timed out counts as a failure; a function test is one case. `pass_rate` is PASS and
 * PARTIAL over active cases. A value nobody measured is null.
 */
export function calcMetrics(results: readonly TestResult[]): Metrics {
  const active = results.filter((r) => !r.skipped && !r.todo);
  const counts = { passed: 0, partial: 0, failed: 0 };
  const summary = new SummaryBuilder(1);
  for (const r of active) {
    const status = getTestStatus(r);
    if (status === 'PASS') counts.passed++;
    else if (status === 'PARTIAL') counts.partial++;
    else counts.failed++;
    summary.add({
      status: status === 'FAIL' ? 'failed' : 'passed',
      runs: [],
      metrics: r.metrics ?? measureResult(r, status),
    } as unknown as CaseResult);
  }
  const { quality_score, latency_ms, keyword_hit_rate, intent_match_rate, pass_rate, ...own } =
    summary.build({ agent_id: '', connector: '', duration_ms: 0 }).metrics ?? {};
  return {
    ...own,
    total: active.length,
    keyword_hit_rate: keyword_hit_rate ?? null,
    intent_match_rate: intent_match_rate ?? null,
    avg_quality_score: quality_score ?? null,
    avg_latency_ms: latency_ms ?? null,
    pass_rate: pass_rate ?? null,
    ...counts,
  };
}

/** The kit rule for a result built by hand (not by `runSuite`): its evaluation when it passed, a failure otherwise. */
function measureResult(r: TestResult, status: TestStatus): Record<string, number> {
  if (r.is_fn_based) return {};
  if (status === 'FAIL') return failedCase(typeof r.keyword_hit_rate === 'number', r.elapsed_ms);
  return gradeEvaluation(r).metrics ?? {};
}

/**
 * Judges metrics against thresholds as the CLI does (the kernel's `judge`): each threshold is a
 * minimum (a maximum for `_ms` metrics), `pass_rate ≥ 100%` applies unless given (to metrics that
 * have a `pass_rate`, as `calcMetrics` returns them), a known metric
 * nobody measured is shown as N/A and not held against the run, and a run with no active case does
 * not ship. A threshold name that is no metric (`constructor`, `pass_rat`) throws CONFIG_INVALID.
 */
export function judgeShipability(metrics: Metrics, thresholds: Thresholds = {}): ShipabilityVerdict {
  checkThresholdNames({ thresholds }, { customMetrics: true });
  const measured: Record<string, number> = {};
  for (const [name, value] of Object.entries(metrics))
    if (typeof value === 'number' && name !== 'total') measured[name] = value;
  if (typeof metrics.avg_quality_score === 'number') measured.quality_score = metrics.avg_quality_score;
  if (typeof metrics.avg_latency_ms === 'number') measured.latency_ms = metrics.avg_latency_ms;
  // Metrics in agentest-kit's documented shape ({ total, keyword_hit_rate, intent_match_rate,
  // avg_quality_score, avg_latency_ms }, written by hand or by agentest-kit) carry no pass_rate: there
  // is no pass count to hold to 100%, so only the given thresholds judge them, as agentest-kit does.
  const implicit: Record<string, number> = Object.hasOwn(metrics, 'pass_rate') ? { pass_rate: 1 } : {};
  return judge(measured, { ...implicit, ...(thresholds as Record<string, number>) });
}

/** Metric labels and values print as the kit format does (`Keyword Hit Rate`, `72.0%`, `812ms`). */
export { formatMetric, metricLabel };

/** A metric by name; the kernel's `quality_score` / `latency_ms` stand for the kit's averages. */
export const metricValue = (metrics: Metrics, name: string): unknown => kitMetricValue(metrics, name);
