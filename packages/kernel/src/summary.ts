import type { CaseResult, Status } from './types/result.js';
import type { Summary } from './types/run.js';
import { isUnasserted } from './unasserted.js';

/**
 * Folds case results into the summary as they arrive, so memory stays flat however many cases run.
 * Counts are per case; `overall_pass_rate` is passed runs over executed runs, in percent. The summary
 * holds facts only: thresholds and a verdict, if any, are added by `summary` taps.
 */
export class SummaryBuilder {
  private readonly counts: Record<Status, number> = { passed: 0, failed: 0, error: 0, timeout: 0, skipped: 0 };
  private runsTotal = 0;
  private runsPassed = 0;
  private stable = 0;
  private unstable = 0;
  private unasserted = 0;
  private readonly metricSums = new Map<string, { sum: number; n: number }>();

  constructor(private readonly runsPerCase: number) {}

  add(result: CaseResult): void {
    this.counts[result.status]++;
    if (result.status === 'skipped') return;
    if (isUnasserted(result)) this.unasserted++;
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

  build(base: Pick<Summary, 'agent_id' | 'agent_path' | 'connector' | 'duration_ms'>): Summary {
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
    if (this.unasserted) summary.unasserted = this.unasserted;
    const metrics = this.metrics(executed);
    if (Object.keys(metrics).length) summary.metrics = metrics;
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

function round4(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}
