import { mean, sortedQuantile } from './quantile.js';
import { randomIndex, seededRandom, type Random } from './random.js';
import type { Interval } from './wilson.js';

/** One case's run scores on each side (1 pass, 0 fail, or a score in between). */
export interface PairedRuns {
  base: readonly number[];
  head: readonly number[];
}

export interface BootstrapOptions {
  /** Resamples (default 10,000). */
  resamples?: number;
  /** Seed of the generator (default 1): the same seed gives the same interval. */
  seed?: number;
  /** Confidence of the percentile interval (default 0.95). */
  level?: number;
}

export interface BootstrapResult extends Interval {
  /** The observed mean over cases of (head's mean score − base's mean score). */
  estimate: number;
  resamples: number;
}

export const DEFAULT_RESAMPLES = 10_000;

/**
 * The suite's pass-rate difference with a two-level paired bootstrap (Miller 2024): resample cases
 * with replacement, then, within each drawn case, resample its runs on each side, and take the mean
 * of the per-case differences. Pairing by case removes the between-case variance; resampling runs
 * keeps the run-to-run noise in the interval. The interval is the percentile interval.
 */
export function pairedBootstrap(cases: readonly PairedRuns[], options: BootstrapOptions = {}): BootstrapResult {
  const resamples = options.resamples ?? DEFAULT_RESAMPLES;
  const level = options.level ?? 0.95;
  const random = seededRandom(options.seed ?? 1);
  const n = cases.length;
  const estimate = mean(cases.map((c) => mean(c.head) - mean(c.base)));
  if (n === 0) return { estimate: Number.NaN, lower: Number.NaN, upper: Number.NaN, resamples };
  const statistics = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    let sum = 0;
    for (let i = 0; i < n; i++) {
      const drawn = cases[randomIndex(random, n)]!;
      sum += resampledMean(drawn.head, random) - resampledMean(drawn.base, random);
    }
    statistics[r] = sum / n;
  }
  statistics.sort();
  return { estimate, lower: sortedQuantile(statistics, (1 - level) / 2), upper: sortedQuantile(statistics, 1 - (1 - level) / 2), resamples };
}

/** The mean of `runs.length` draws, with replacement, from `runs`. */
function resampledMean(runs: readonly number[], random: Random): number {
  if (runs.length === 1) return runs[0]!;
  let sum = 0;
  for (let i = 0; i < runs.length; i++) sum += runs[randomIndex(random, runs.length)]!;
  return sum / runs.length;
}
