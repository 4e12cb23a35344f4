import { erfc } from './normal.js';

export interface McNemarResult {
  /** Cases that passed on base and failed on head (regressed). */
  b: number;
  /** Cases that failed on base and passed on head (fixed). */
  c: number;
  /** Two-sided p-value. */
  p: number;
  /** `exact` (binomial) below 25 discordant pairs, `chi-square` (with continuity correction) from 25 on. */
  method: 'exact' | 'chi-square';
}

/** Below this many discordant pairs the normal approximation is poor, so the exact form is used. */
export const EXACT_BELOW = 25;

/**
 * McNemar's test on paired pass/fail outcomes, which looks only at the discordant pairs. Under no
 * change, b ~ Binomial(b + c, 1/2); two-sided p = min(1, 2·P(X ≤ min(b, c))). Worked values:
 * b = 6, c = 0 → 0.03125; b = 5, c = 0 → 0.0625.
 */
export function mcnemar(b: number, c: number): McNemarResult {
  const n = b + c;
  if (n < EXACT_BELOW) return { b, c, p: Math.min(1, 2 * binomialHalfCdf(Math.min(b, c), n)), method: 'exact' };
  const chi = (Math.abs(b - c) - 1) ** 2 / n;
  // P(χ²₁ ≥ x) = P(|Z| ≥ √x) = erfc(√(x/2)).
  return { b, c, p: Math.min(1, erfc(Math.sqrt(Math.max(0, chi) / 2))), method: 'chi-square' };
}

/** P(X ≤ k) for X ~ Binomial(n, 1/2), summed term by term (n < 25 here, so no overflow). */
function binomialHalfCdf(k: number, n: number): number {
  let term = 1; // C(n, 0)
  let sum = 0;
  for (let i = 0; i <= k; i++) {
    sum += term;
    term = (term * (n - i)) / (i + 1);
  }
  return sum / 2 ** n;
}
