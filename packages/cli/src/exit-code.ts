import type { RunOutcome } from '@agentest/kernel';

/**
 * The CLI's exit code for a finished run, from the kernel's facts: 130 interrupted; 3 a reporter or
 * plugin failed (the verdicts stand, but a report may be missing); 1 a case failed, errored or timed
 * out, the run was halted (a budget ran out), or, with thresholds, DO NOT SHIP; 0 otherwise. With
 * thresholds the verdict alone decides, so the exit code and SHIP IT / DO NOT SHIP always agree.
 */
export function outcomeExitCode({ summary, errors }: Pick<RunOutcome, 'summary' | 'errors'>): 0 | 1 | 3 | 130 {
  if (summary.interrupted) return 130;
  if (errors.length) return 3;
  const failed = summary.verdict ? !summary.verdict.can_ship : summary.failed + summary.errors + summary.timeouts > 0;
  return failed || summary.halted ? 1 : 0;
}
