import type { Detection, SuiteVerdict } from './comparison.js';
import {
  mean,
  requiredCases,
  requiredRuns,
  sampleVariance,
  wilsonInterval,
  type PairedRuns,
  type PowerOptions,
} from './stats/index.js';

/**
 * How many cases (or runs) it takes to detect a drop of δ, from n = (z₁₋α/₂ + z₁₋β)²·Var(d)/δ².
 *
 * Var(d) of the per-case differences is bounded by E[d²] = P(a case changed)·E[d² | it changed].
 * With few changed cases the sample variance is a poor guide (none changed would give 0, and "0
 * cases needed"), so agentest uses the larger of the sample variance and that bound with the 95%
 * Wilson upper limit of the share of cases that changed: a small suite where nothing changed does
 * not claim to rule out a drop.
 */
export function detection(
  pairs: readonly PairedRuns[],
  verdict: SuiteVerdict,
  delta: number,
  power: PowerOptions,
): Detection {
  const n = pairs.length;
  const differences = pairs.map((p) => mean(p.head) - mean(p.base));
  const changed = differences.filter((d) => d !== 0);
  const meanSquare = changed.length ? mean(changed.map((d) => d * d)) : 1;
  const variance = Math.max(sampleVariance(differences), wilsonInterval(changed.length, n).upper * meanSquare);
  const needed = requiredCases(variance, delta, power);
  const ruledOut = verdict.difference.lower >= -delta && n >= needed.cases;
  const result: Detection = {
    delta,
    decided: verdict.verdict !== 'no_significant_change' || ruledOut,
    casesCompared: n,
    needed,
    variance,
  };
  if (pairs.some((p) => p.base.length > 1 || p.head.length > 1))
    result.runs = runsNeeded(pairs, variance, delta, power);
  return result;
}

/** Runs per case needed with these cases: the run-to-run variance shrinks with runs, the rest does not. */
function runsNeeded(pairs: readonly PairedRuns[], variance: number, delta: number, power: PowerOptions): number | null {
  const bernoulli = (runs: readonly number[]) => mean(runs) * (1 - mean(runs));
  const within = mean(pairs.map((p) => bernoulli(p.base) + bernoulli(p.head)));
  const withinAtCurrentRuns = mean(
    pairs.map((p) => bernoulli(p.base) / p.base.length + bernoulli(p.head) / p.head.length),
  );
  const between = Math.max(0, variance - withinAtCurrentRuns);
  return requiredRuns(between, within, pairs.length, delta, power).runs ?? null;
}
