// The statistics alone: the comparison's readers and renderers are not needed to record a run.
import { wilsonInterval } from '@agentest/compare/stats';
import type { CaseHistory, Status } from '@agentest/kernel';

/** How many of a case's latest outcomes flaky detection and the report's strip look at. */
export const FLAKY_WINDOW = 20;

/**
 * Flips between consecutive outcomes (passed, or not), over the latest `window` runs of one lineage:
 * a case that passes and fails with nothing changed is flaky. One flip is enough to flag it; the flip
 * rate and its Wilson interval say how flaky (1 flip in 19 chances is not 10 in 19). Skipped runs are
 * not outcomes.
 */
export function caseHistory(statuses: readonly Status[], window = FLAKY_WINDOW): CaseHistory {
  // Most often every status is an outcome and all fit: copied once, not filtered and then cut.
  const recent =
    statuses.length <= window && !statuses.includes('skipped')
      ? statuses.slice()
      : statuses.filter((s) => s !== 'skipped').slice(-window);
  const transitions = recent.length - 1;
  let flips = 0;
  for (let i = 1; i < recent.length; i++) if ((recent[i] === 'passed') !== (recent[i - 1] === 'passed')) flips++;
  if (!flips) return { recent };
  const { lower, upper } = wilsonInterval(flips, transitions);
  return {
    recent,
    flaky: { flips, transitions, flip_rate: round(flips / transitions), flip_rate_ci: [round(lower), round(upper)] },
  };
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
