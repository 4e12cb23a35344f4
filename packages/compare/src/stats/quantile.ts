/**
 * The q-quantile (0 ≤ q ≤ 1) of values already sorted ascending, interpolating linearly between
 * order statistics (R's type 7, the usual default). `NaN` for no values.
 */
export function sortedQuantile(sorted: ArrayLike<number>, q: number): number {
  const n = sorted.length;
  if (n === 0) return Number.NaN;
  const position = (n - 1) * q;
  const below = Math.floor(position);
  const above = Math.min(n - 1, below + 1);
  return sorted[below]! + (sorted[above]! - sorted[below]!) * (position - below);
}

export function median(values: readonly number[]): number {
  return sortedQuantile(Float64Array.from(values).sort(), 0.5);
}

export function mean(values: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += values[i]!;
  return values.length ? sum / values.length : Number.NaN;
}

/** The sample variance (n − 1 in the denominator); 0 for fewer than two values. */
export function sampleVariance(values: readonly number[]): number {
  if (values.length < 2) return 0;
  const m = mean(values);
  return values.reduce((sum, v) => sum + (v - m) ** 2, 0) / (values.length - 1);
}
