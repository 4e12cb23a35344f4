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
 */
export function medianChange(pairs: readonly PairedValue[], options: BootstrapOptions = {}): MedianChange {
  const resamples = options.resamples ?? DEFAULT_RESAMPLES;
  const level = options.level ?? 0.95;
  const n = pairs.length;
  const base = new Float64Array(n);
  const head = new Float64Array(n);
  const medianOf = (values: Float64Array) => sortedQuantile(values.sort(), 0.5);
  pairs.forEach((pair, i) => ((base[i] = pair.base), (head[i] = pair.head)));
  const baseMedian = medianOf(base);
  const headMedian = medianOf(head);
  if (n === 0) return { baseMedian, headMedian, difference: Number.NaN, lower: Number.NaN, upper: Number.NaN, resamples };
  const random = seededRandom(options.seed ?? 1);
  const statistics = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    for (let i = 0; i < n; i++) {
      const drawn = pairs[randomIndex(random, n)]!;
      base[i] = drawn.base;
      head[i] = drawn.head;
    }
    statistics[r] = medianOf(head) - medianOf(base);
  }
  statistics.sort();
  return { baseMedian, headMedian, difference: headMedian - baseMedian, lower: sortedQuantile(statistics, (1 - level) / 2), upper: sortedQuantile(statistics, 1 - (1 - level) / 2), resamples };
}
