/**
 * Holm's step-down correction for a family of m tests: sort the p-values, multiply the i-th
 * smallest (0-based) by m − i, keep the sequence non-decreasing and cap it at 1. Rejecting where
 * the adjusted p is below α keeps the chance of any false alarm across all cases at most α,
 * without Bonferroni's loss of power. Returns the adjusted p-values in the input's order.
 */
export function holm(pValues: readonly number[]): number[] {
  const m = pValues.length;
  const order = pValues.map((p, index) => ({ p, index })).sort((a, b) => a.p - b.p);
  const adjusted = new Array<number>(m);
  let running = 0;
  order.forEach(({ p, index }, rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * p));
    adjusted[index] = running;
  });
  return adjusted;
}
