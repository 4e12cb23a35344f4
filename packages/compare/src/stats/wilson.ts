import { normalQuantile } from './normal.js';

export interface Interval {
  lower: number;
  upper: number;
}

/**
 * The Wilson score interval for a pass rate of `successes` out of `n` runs, as fractions (0–1), at
 * confidence `level` (default 95%, z = 1.96). Unlike p̂ ± z·SE it stays inside [0, 1] and does not
 * collapse to a point when every run passes: 5/5 still leaves the lower bound at 0.566.
 */
export function wilsonInterval(successes: number, n: number, level = 0.95): Interval {
  if (n <= 0) return { lower: 0, upper: 1 };
  const z = normalQuantile(1 - (1 - level) / 2);
  const p = successes / n;
  const z2n = (z * z) / n;
  const centre = (p + z2n / 2) / (1 + z2n);
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2n / (4 * n))) / (1 + z2n);
  return { lower: Math.max(0, centre - half), upper: Math.min(1, centre + half) };
}
