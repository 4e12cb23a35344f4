import type { Summary, Verdict } from '@agentest/kernel';
import { formatMetric, isMaxMetric } from '../metric-format.js';
import { haltNote } from '../usage.js';
import { KNOWN_METRICS, metricKey } from './metric-names.js';

/**
 * The summary with the run's thresholds and its ship verdict, when the plan has thresholds. Failed
 * cases count against the verdict: unless the user set their own pass_rate bar, every executed case
 * must pass (PARTIAL grades count as passed), so a failing run cannot ship, nor one stopped early.
 */
export function withVerdict<S extends Summary>(summary: S, thresholds: Record<string, number> | undefined): S {
  if (!thresholds || !Object.keys(thresholds).length) return summary;
  const judged = { pass_rate: 1, ...thresholds };
  const verdict = judge(summary.metrics ?? {}, judged);
  // A run stopped before every case ran (a budget, halt(), an interrupt) judged only part of the suite: it
  // does not ship, so the verdict agrees with the exit code (1, or 130).
  const halted = haltNote(summary);
  if (halted) verdict.issues.push(halted[0]!.toUpperCase() + halted.slice(1));
  if (summary.interrupted) verdict.issues.push(`Run interrupted: ${summary.not_run ?? 0} cases not run`);
  return { ...summary, thresholds: judged, verdict: { can_ship: verdict.issues.length === 0, issues: verdict.issues } };
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
