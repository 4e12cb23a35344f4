import type { CaseRecord, ComparisonInput, RunRecord } from './comparison-input.js';
import type { MetricChange, MetricName } from './comparison.js';
import { mean, medianChange, type PairedValue } from './stats/index.js';

const READERS: Record<MetricName, (run: RunRecord) => number | undefined> = {
  latency_ms: (run) => run.durationMs,
  tokens: (run) => run.tokens,
  cost: (run) => run.cost,
};

/**
 * The fewest cases whose medians' interval can call a change at confidence `level`. A percentile
 * bootstrap of n pairs that all moved one way excludes 0 for any n, even 2 or 3 cases, where moves
 * that way by chance are common; so a change also needs n large enough that a unanimous move is
 * itself significant by the exact two-sided sign test: 2·½ⁿ ≤ 1 − level (6 cases at 95%).
 */
export function minCasesForChange(level: number): number {
  return Math.max(2, Math.ceil(Math.log2(2 / (1 - level))));
}

/**
 * Resamples for the medians' intervals. They describe, and never set the exit code, so they take
 * fewer than the verdict's 10,000: enough for a stable 95% percentile interval, and a few seconds
 * less on a suite of tens of thousands of cases.
 */
export const METRIC_RESAMPLES = 2_000;

/**
 * Latency, tokens and cost: each case's mean over its runs on each side, then the median over the
 * cases that have the metric on both sides, with a paired bootstrap interval of the change. A metric
 * neither report recorded is left out.
 */
export function metricChanges(
  base: ComparisonInput,
  head: ComparisonInput,
  options: { seed: number; level: number; resamples?: number },
): MetricChange[] {
  const changes: MetricChange[] = [];
  for (const metric of Object.keys(READERS) as MetricName[]) {
    const pairs: PairedValue[] = [];
    for (const [id, before] of base.cases) {
      const after = head.cases.get(id);
      const b = after && caseValue(before, READERS[metric]);
      const h = after && caseValue(after, READERS[metric]);
      if (b !== undefined && h !== undefined) pairs.push({ base: b, head: h });
    }
    if (!pairs.length) continue;
    const result = medianChange(pairs, {
      seed: options.seed,
      level: options.level,
      resamples: options.resamples ?? METRIC_RESAMPLES,
    });
    const significant = pairs.length >= minCasesForChange(options.level) && (result.lower > 0 || result.upper < 0);
    changes.push({
      metric,
      cases: pairs.length,
      ...result,
      change: significant ? (result.difference > 0 ? 'up' : 'down') : 'none',
    });
  }
  return changes;
}

function caseValue(record: CaseRecord, read: (run: RunRecord) => number | undefined): number | undefined {
  const values = record.runs
    .filter((run) => run.status !== 'skipped')
    .map(read)
    .filter((v): v is number => v !== undefined);
  return values.length ? mean(values) : undefined;
}
