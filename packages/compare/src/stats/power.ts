import { normalQuantile } from './normal.js';

export interface PowerOptions {
  /** Two-sided significance level (default 0.05). */
  alpha?: number;
  /** Chance of detecting a real drop of δ (default 0.8). */
  power?: number;
}

/** (z₁₋α/₂ + z₁₋β)², the factor every sample size below is built on (7.849 at α 0.05, power 0.8). */
export function powerFactor(options: PowerOptions = {}): number {
  const z = normalQuantile(1 - (options.alpha ?? 0.05) / 2) + normalQuantile(options.power ?? 0.8);
  return z * z;
}

/**
 * The variance of a paired pass/fail difference when both sides pass at rate p and the outcomes
 * correlate with ρ: σ_A² + σ_B² − 2·Cov(A,B) = 2·p(1−p)(1−ρ).
 */
export function differenceVariance(passRate: number, correlation: number): number {
  return 2 * passRate * (1 - passRate) * (1 - correlation);
}

export interface SampleSize {
  /** The formula's value before rounding. */
  exact: number;
  /** Whole cases needed: the exact value rounded up. */
  cases: number;
}

/**
 * Cases needed to detect a drop of δ in the mean paired difference: n = (z₁₋α/₂ + z₁₋β)²·Var(d)/δ².
 * At pass rate 0.8, ρ 0.5, α 0.05 and power 0.8 that is 125.6 (126 cases) for a 10-point drop and
 * 502.3 (503 cases) for a 5-point drop.
 */
export function requiredCases(varianceOfDifference: number, delta: number, options: PowerOptions = {}): SampleSize {
  const exact = (powerFactor(options) * varianceOfDifference) / (delta * delta);
  return { exact, cases: Math.max(1, Math.ceil(exact - 1e-9)) };
}

export interface RunsNeeded {
  /** Runs per case on each side, or `undefined` when no number of runs is enough with this many cases. */
  runs?: number;
}

/**
 * Runs per case needed with `cases` cases, from Var(d̄) = (Var_between + E[σ²]/K)/n (Miller 2024):
 * more runs shrink only the run-to-run term, so when the between-case variance alone is too large
 * for the cases at hand, more runs cannot help and the answer is more cases.
 *
 * @param betweenVariance the variance of the per-case true differences
 * @param withinVariance E[σ²_base,i + σ²_head,i], the run-to-run variance of one run on each side
 */
export function requiredRuns(
  betweenVariance: number,
  withinVariance: number,
  cases: number,
  delta: number,
  options: PowerOptions = {},
): RunsNeeded {
  const room = (cases * delta * delta) / powerFactor(options) - betweenVariance;
  if (room <= 0) return {};
  return { runs: Math.max(1, Math.ceil(withinVariance / room - 1e-9)) };
}
