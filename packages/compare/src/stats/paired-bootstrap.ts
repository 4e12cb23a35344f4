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
  // Cases whose runs agree on both sides add a fixed difference: a typed array lookup, no call.
  const fixed = new Float64Array(n);
  const samplers: ({ base: RunSampler; head: RunSampler } | undefined)[] = cases.map((c, i) => {
    const base = runSampler(c.base);
    const head = runSampler(c.head);
    if (base.constant !== undefined && head.constant !== undefined) {
      fixed[i] = head.constant - base.constant;
      return undefined;
    }
    return { base, head };
  });
  const statistics = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    let sum = 0;
    for (let i = 0; i < n; i++) {
      const drawn = randomIndex(random, n);
      const sampler = samplers[drawn];
      sum += sampler ? sampler.head(random) - sampler.base(random) : fixed[drawn]!;
    }
    statistics[r] = sum / n;
  }
  statistics.sort();
  return {
    estimate,
    lower: sortedQuantile(statistics, (1 - level) / 2),
    upper: sortedQuantile(statistics, 1 - (1 - level) / 2),
    resamples,
  };
}

/**
 * Draws the mean of `runs.length` runs resampled with replacement from `runs`; `constant` when every draw is the same.
 */
type RunSampler = ((random: Random) => number) & { constant?: number };

/**
 * The cheapest exact way to resample one side of one case. Runs that all agree need no draw at all
 * (most cases of a healthy suite); pass/fail runs need one: the number of passes among k draws is
 * Binomial(k, c/k), drawn from its cumulative table; only scores in between are drawn run by run.
 */
function runSampler(runs: readonly number[]): RunSampler {
  const k = runs.length;
  if (runs.every((r) => r === runs[0])) {
    const constant = runs[0]!;
    return Object.assign(() => constant, { constant });
  }
  if (runs.every((r) => r === 0 || r === 1)) {
    const table = binomialCdf(k, runs.filter((r) => r === 1).length / k);
    return (random) => {
      const u = random();
      let passes = 0;
      while (passes < k && table[passes]! <= u) passes++;
      return passes / k;
    };
  }
  return (random) => {
    let sum = 0;
    for (let i = 0; i < k; i++) sum += runs[randomIndex(random, k)]!;
    return sum / k;
  };
}

/** P(X ≤ j) for X ~ Binomial(k, p), j = 0..k, built from the pmf recurrence. */
function binomialCdf(k: number, p: number): Float64Array {
  const cdf = new Float64Array(k + 1);
  let pmf = (1 - p) ** k;
  let total = 0;
  for (let j = 0; j <= k; j++) {
    total += pmf;
    cdf[j] = total;
    pmf = (pmf * (k - j) * p) / ((j + 1) * (1 - p));
  }
  cdf[k] = 1;
  return cdf;
}
