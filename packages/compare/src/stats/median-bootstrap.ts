import { sortedQuantile } from './quantile.js';
import { randomIndex, seededRandom } from './random.js';
import type { BootstrapOptions } from './paired-bootstrap.js';
import { DEFAULT_RESAMPLES } from './paired-bootstrap.js';
import type { Interval } from './wilson.js';

/** One case's value (a latency, a token count, a cost) on each side. */
export interface PairedValue {
  base: number;
  head: number;
}

export interface MedianChange extends Interval {
  baseMedian: number;
  headMedian: number;
  /** headMedian − baseMedian. */
  difference: number;
  resamples: number;
}

/**
 * How a median moved between base and head, with a percentile bootstrap interval of the difference
 * of medians. Cases are resampled in pairs (the same drawn case on both sides), so a suite whose
 * cases differ widely in size still gives a tight interval when every case moved the same way.
 *
 * A resample is kept as counts per case, and its medians are read by walking the cases in each
 * side's sorted order: linear time per resample instead of a sort, which matters at 10,000 cases.
 */
export function medianChange(pairs: readonly PairedValue[], options: BootstrapOptions = {}): MedianChange {
  const resamples = options.resamples ?? DEFAULT_RESAMPLES;
  const level = options.level ?? 0.95;
  const n = pairs.length;
  const baseOrder = sortedBy(pairs, (p) => p.base);
  const headOrder = sortedBy(pairs, (p) => p.head);
  const all = new Uint32Array(n).fill(1);
  const baseMedian = countedMedian(baseOrder, all, n, (i) => pairs[i]!.base);
  const headMedian = countedMedian(headOrder, all, n, (i) => pairs[i]!.head);
  if (n === 0)
    return { baseMedian, headMedian, difference: Number.NaN, lower: Number.NaN, upper: Number.NaN, resamples };
  const random = seededRandom(options.seed ?? 1);
  const counts = new Uint32Array(n);
  const statistics = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    counts.fill(0);
    for (let i = 0; i < n; i++) counts[randomIndex(random, n)]!++;
    statistics[r] =
      countedMedian(headOrder, counts, n, (i) => pairs[i]!.head) -
      countedMedian(baseOrder, counts, n, (i) => pairs[i]!.base);
  }
  statistics.sort();
  return {
    baseMedian,
    headMedian,
    difference: headMedian - baseMedian,
    lower: sortedQuantile(statistics, (1 - level) / 2),
    upper: sortedQuantile(statistics, 1 - (1 - level) / 2),
    resamples,
  };
}

function sortedBy(pairs: readonly PairedValue[], value: (p: PairedValue) => number): Uint32Array {
  return Uint32Array.from(pairs.keys()).sort((a, b) => value(pairs[a]!) - value(pairs[b]!));
}

/**
 * The median of a multiset given as counts per case, walking the cases in ascending order of value:
 * the mean of the values at 0-based positions ⌊(n−1)/2⌋ and ⌈(n−1)/2⌉, as `sortedQuantile` takes it.
 */
function countedMedian(
  order: Uint32Array,
  counts: Uint32Array,
  total: number,
  value: (index: number) => number,
): number {
  if (total === 0) return Number.NaN;
  const low = Math.floor((total - 1) / 2);
  const high = Math.ceil((total - 1) / 2);
  let seen = 0;
  let lowValue = Number.NaN;
  for (const index of order) {
    seen += counts[index]!;
    if (Number.isNaN(lowValue) && seen > low) lowValue = value(index);
    if (seen > high) return (lowValue + value(index)) / 2;
  }
  return lowValue;
}
