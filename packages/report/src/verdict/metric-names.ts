import { AgentestError, type RunPlan, type Suite } from '@agentest/kernel';
import { didYouMean } from '@agentest/kernel/errors';

/** With `--coverage`: the share of the app's script lines, functions, branches and statements that ran (0–1). */
export const COVERAGE_METRICS = ['coverage_lines', 'coverage_functions', 'coverage_branches', 'coverage_statements'];

/**
 * The metrics agentest itself reports, by name: `pass_rate` (the summary's), what graded agent
 * replies report (agentest-kit adapters: keyword and intent rates, quality score, latency), and with
 * `--coverage` the coverage of the app's scripts. The kit API's names for the two averages are
 * accepted as thresholds for the same values.
 */
export const KNOWN_METRICS: ReadonlySet<string> = new Set([
  'pass_rate',
  'keyword_hit_rate',
  'intent_match_rate',
  'quality_score',
  'latency_ms',
  'avg_quality_score',
  'avg_latency_ms',
  ...COVERAGE_METRICS,
]);

/** The kit API's names for the averages the summary reports as `quality_score` / `latency_ms`. */
const ALIASES: ReadonlyMap<string, string> = new Map([
  ['avg_quality_score', 'quality_score'],
  ['avg_latency_ms', 'latency_ms'],
]);

/** The name a threshold's value is found under in the run's metrics. */
export function metricKey(name: string): string {
  return ALIASES.get(name) ?? name;
}

/**
 * Whether `name` may be a metric this run reports: a known one, or any name when the suite's cases report their own.
 */
function mayReport(name: string, customMetrics: boolean): boolean {
  if (KNOWN_METRICS.has(name)) return true;
  // A name an object has by inheritance (`constructor`, `__proto__`, `toString`) is never a metric.
  if (name in Object.prototype) return false;
  // One letter away from a known metric is a typo, whatever the suite reports.
  return customMetrics && didYouMean(name, [...KNOWN_METRICS]) === '';
}

/**
 * Refuses, before any case runs, a threshold whose name cannot be a metric of this run: not a known
 * metric, and either close to one (a typo), a name every object inherits, or in a suite whose cases
 * report no metrics of their own. `--threshold` names are FLAG_INVALID, the config's CONFIG_INVALID.
 */
export function checkThresholdNames(
  plan: Pick<RunPlan, 'thresholds' | 'thresholdFlags'>,
  suite: Pick<Suite, 'customMetrics'>,
): void {
  for (const name of Object.keys(plan.thresholds ?? {})) {
    if (mayReport(name, suite.customMetrics === true)) continue;
    const fromFlag = plan.thresholdFlags?.includes(name) === true;
    const where = fromFlag ? '--threshold' : `thresholds.${name}`;
    const custom = suite.customMetrics ? '' : '; this suite reports no metrics of its own';
    throw new AgentestError(
      fromFlag ? 'FLAG_INVALID' : 'CONFIG_INVALID',
      `${where}: no metric is named "${name}"${didYouMean(name, [...KNOWN_METRICS])} (known: ${[...KNOWN_METRICS].join(', ')}${custom})`,
      { where },
    );
  }
}
