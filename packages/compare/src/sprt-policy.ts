import type { RunPolicy } from '@agentest/kernel';
import { sprt, type SprtOptions } from './stats/sprt.js';

/** The defaults of `--runs auto`: p₀ 0.9, p₁ 0.6, α 0.05, β 0.2, at most 10 runs. */
export const SEQUENTIAL_DEFAULTS = { p0: 0.9, p1: 0.6, alpha: 0.05, beta: 0.2, max: 10 } as const;

/**
 * `--runs auto`: Wald's sequential test decides after each run of a case whether it needs another.
 * Passes count for H₀ (healthy, p₀), failures, errors and timeouts for H₁ (degraded, p₁); skipped
 * runs are not outcomes. A case that keeps passing is accepted early (4 straight passes with the
 * defaults), one that fails enough is flagged early (2 failures out of 2), and one that reaches the
 * maximum stays undecided. The kernel records the last answer on the case as `run_policy`.
 */
export function sprtRunPolicy(options: SprtOptions = {}): RunPolicy {
  const test = sprt(options);
  const { p0, p1 } = { ...SEQUENTIAL_DEFAULTS, ...options };
  const hypotheses = `SPRT p0 ${p0} vs p1 ${p1}`;
  return (_testCase, runs, max) => {
    if (runs.every((run) => run.status === 'skipped'))
      return { stop: true, decision: 'skipped', reason: 'the case skipped itself' };
    const passes = runs.filter((run) => run.status === 'passed').length;
    const failures = runs.filter((run) => run.status !== 'passed' && run.status !== 'skipped').length;
    const counted = `${passes} passed, ${failures} failed of ${runs.length} runs`;
    switch (test.decide(passes, failures)) {
      case 'accept':
        return { stop: true, decision: 'accepted', reason: `healthy: ${counted} (${hypotheses})` };
      case 'flag':
        return { stop: true, decision: 'flagged', reason: `degraded: ${counted} (${hypotheses})` };
      default:
        return runs.length >= max
          ? { stop: true, decision: 'undecided', reason: `no decision at the maximum of ${max} runs: ${counted}` }
          : { stop: false };
    }
  };
}
