import { AgentestError, type RunPlan } from '@agentest/kernel';
import { formatMetric, isMaxMetric, isShareMetric } from '../metric-format.js';

/**
 * Refuses, before any case runs, a threshold no run can meet or every run meets whatever it does: a
 * share (`pass_rate`, `keyword_hit_rate`, `coverage_lines`, …) outside 0–1 (`=101%`, `=-5%`, or `=80`,
 * a percentage written as a share) and a negative latency maximum. Otherwise the run would only ever
 * say DO NOT SHIP (or always SHIP IT) with no word on why. `--threshold` values are FLAG_INVALID, the
 * config's CONFIG_INVALID, each naming where the value came from.
 */
export function checkThresholdValues(plan: Pick<RunPlan, 'thresholds' | 'thresholdFlags'>): void {
  for (const [name, value] of Object.entries(plan.thresholds ?? {})) {
    const problem = valueProblem(name, value);
    if (!problem) continue;
    const fromFlag = plan.thresholdFlags?.includes(name) === true;
    const where = fromFlag ? '--threshold' : `thresholds.${name}`;
    throw new AgentestError(fromFlag ? 'FLAG_INVALID' : 'CONFIG_INVALID', `${where}: ${problem}`, { where });
  }
}

/** What is wrong with `value` as the threshold on `name`, or '' when nothing is. */
function valueProblem(name: string, value: number): string {
  if (isMaxMetric(name))
    return value < 0 ? `${name} is a maximum in milliseconds, got ${value}: no run takes less than 0ms` : '';
  if (!isShareMetric(name) || (value >= 0 && value <= 1)) return '';
  const share = `${name} is a share from 0 to 1`;
  const shown = `${value} (${formatMetric(name, value)})`;
  if (value < 0) return `${share} (at least 0%), got ${shown}: every run meets it; write ${name}=0 for no minimum`;
  // Just over 1 is a minimum over 100 % (`=101%`), which no run meets; more is a percentage written as a share.
  if (value < 2) return `${share} (at most 100%), got ${shown}: no run can reach more than 100%`;
  const config = name.startsWith('coverage_') ? ` (the config's coverage.${name.slice(9)} takes a percentage)` : '';
  return `${share}, got ${value}: write ${name}=${value}% or ${name}=${value / 100}${config}`;
}
