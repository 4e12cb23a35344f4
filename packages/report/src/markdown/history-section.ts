import type { Status } from '@agentest/kernel';
import { caseLabel, formatPercent } from '../text.js';
import { table } from './syntax.js';
import type { Report } from '../report.js';

const ICON: Record<Status, string> = { passed: '🟢', failed: '🔴', error: '🟠', timeout: '🟡', skipped: '⚪' };

/** The cases whose outcome flips between runs of the same agent, config and model, with their recent outcomes. */
export function flakySection({ results, summary }: Report): string {
  if (!summary.flaky?.length) return '';
  const strips = new Map(results.map((r) => [r.id, r.history?.recent ?? []]));
  const rows = [...summary.flaky]
    .sort((a, b) => b.flip_rate - a.flip_rate || a.id.localeCompare(b.id))
    .map((f) => [
      caseLabel(f),
      `${f.flips}/${f.transitions}`,
      formatPercent(f.flip_rate * 100),
      `${formatPercent(f.flip_rate_ci[0] * 100)}–${formatPercent(f.flip_rate_ci[1] * 100)}`,
      (strips.get(f.id) ?? []).map((s) => ICON[s]).join(''),
    ]);
  return `## Flaky Cases\n\nOutcomes that flip between runs of the same agent, config and model (from the run history; oldest first).\n\n${table(['ID', 'Flips', 'Flip Rate', '95% CI', 'Recent Outcomes'], rows)}`;
}

/** `--runs auto`: how many runs each case needed and why it stopped. */
export function sequentialSection({ results }: Report): string {
  const decided = results.filter((r) => r.run_policy);
  if (!decided.length) return '';
  const rows = decided.map((r) => [
    caseLabel(r),
    `${r.run_policy!.runs} of ${r.run_policy!.max}`,
    r.run_policy!.decision ?? '',
    r.run_policy!.reason ?? '',
  ]);
  const runs = decided.reduce((n, r) => n + r.run_policy!.runs, 0);
  const most = decided.reduce((n, r) => n + r.run_policy!.max, 0);
  return `## Sequential Runs\n\n${runs} runs of at most ${most}: each case ran until the sequential test (SPRT) was sure.\n\n${table(['ID', 'Runs', 'Decision', 'Why It Stopped'], rows)}`;
}
