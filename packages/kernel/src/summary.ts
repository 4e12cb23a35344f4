import { formatMetric, isMaxMetric, KNOWN_METRICS, metricKey } from './metric-names.js';
import type { CaseResult, Status } from './types/result.js';
import type { Summary, Verdict } from './types/run.js';

/**
 * Folds case results into the summary as they arrive, so memory stays flat however many cases run.
 * Counts are per case; `overall_pass_rate` is passed runs over executed runs, in percent.
 */
export class SummaryBuilder {
  private readonly counts: Record<Status, number> = { passed: 0, failed: 0, error: 0, timeout: 0, skipped: 0 };
  private runsTotal = 0;
  private runsPassed = 0;
  private stable = 0;
  private unstable = 0;
  private readonly metricSums = new Map<string, { sum: number; n: number }>();

  constructor(private readonly runsPerCase: number) {}

  add(result: CaseResult): void {
    this.counts[result.status]++;
    if (result.status === 'skipped') return;
    for (const run of result.runs) {
      this.runsTotal++;
      if (run.status === 'passed') this.runsPassed++;
    }
    if (result.stability?.stable) this.stable++;
    else if (result.stability) this.unstable++;
    for (const [name, value] of Object.entries(result.metrics)) {
      if (!Number.isFinite(value)) continue;
      const entry = this.metricSums.get(name) ?? { sum: 0, n: 0 };
      entry.sum += value;
      entry.n++;
      this.metricSums.set(name, entry);
    }
  }

  build(
    base: Pick<Summary, 'agent_id' | 'agent_path' | 'connector' | 'duration_ms'>,
    thresholds?: Record<string, number>,
  ): Summary {
    const executed = this.counts.passed + this.counts.failed + this.counts.error + this.counts.timeout;
    const summary: Summary = {
      total: executed + this.counts.skipped,
      passed: this.counts.passed,
      failed: this.counts.failed,
      skipped: this.counts.skipped,
      errors: this.counts.error,
      timeouts: this.counts.timeout,
      duration_ms: base.duration_ms,
      agent_id: base.agent_id,
      ...(base.agent_path ? { agent_path: base.agent_path } : {}),
      connector: base.connector,
      runs_per_case: this.runsPerCase,
      total_runs: this.runsTotal,
      overall_pass_rate: this.runsTotal ? Math.round((this.runsPassed / this.runsTotal) * 1000) / 10 : 0,
    };
    if (this.runsPerCase > 1) {
      summary.stable_cases = this.stable;
      summary.unstable_cases = this.unstable;
    }
    const metrics = this.metrics(executed);
    if (Object.keys(metrics).length) summary.metrics = metrics;
    if (thresholds && Object.keys(thresholds).length) {
      // Failed cases count against the verdict: unless the user set their own pass_rate bar, every
      // executed case must pass (PARTIAL grades count as passed), so a failing run cannot ship.
      summary.thresholds = { pass_rate: 1, ...thresholds };
      summary.verdict = judge(metrics, summary.thresholds);
    }
    return summary;
  }

  /** Mean of each metric over the cases that report it, plus `pass_rate` (0–1) over executed cases. */
  private metrics(executed: number): Record<string, number> {
    const out: Record<string, number> = {};
    for (const [name, { sum, n }] of this.metricSums) out[name] = round4(sum / n);
    if (executed) out.pass_rate = round4(this.counts.passed / executed);
    return out;
  }
}

/**
 * A threshold is a minimum, except for metrics ending in `_ms` (latencies), where it is a maximum.
 * A known metric this run did not measure (no selected case has keywords, say) is shown as not
 * measured and does not decide the verdict, as in agentest-kit; but a run in which no case ran does
 * not ship, and neither does a threshold on a custom name no case reported (a typo of `ctx.metric`).
 */
export function judge(metrics: Record<string, number>, thresholds: Record<string, number>): Verdict {
  const issues: string[] = [];
  for (const [name, limit] of Object.entries(thresholds)) {
    const key = metricKey(name);
    const value = Object.hasOwn(metrics, key) ? metrics[key] : undefined;
    const isMax = isMaxMetric(name);
    if (value === undefined) {
      if (name === 'pass_rate') issues.push(`No case ran (threshold Pass Rate ${describe(name, limit, isMax)})`);
      else if (!KNOWN_METRICS.has(name))
        issues.push(`no case reported a metric named "${name}" (threshold ${describe(name, limit, isMax)})`);
    } else if (isMax ? value > limit : value < limit)
      issues.push(
        `${label(name)} ${formatMetric(name, value)} ${isMax ? '>' : '<'} threshold ${formatMetric(name, limit)}`,
      );
  }
  return { can_ship: issues.length === 0, issues };
}

function describe(name: string, limit: number, isMax: boolean) {
  return `${isMax ? '≤' : '≥'}${formatMetric(name, limit)}`;
}

/**
 * `keyword_hit_rate` → `Keyword Hit Rate`; a unit suffix is left to the value (`latency_ms` → `Latency`, shown
 * `812ms`).
 */
function label(name: string): string {
  return name
    .replace(/_ms$/, '')
    .replace(/_/g, ' ')
    .replace(/\b\w/g, (c) => c.toUpperCase());
}

function round4(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}
