import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  median,
  seededRandom,
  sortedQuantile,
  differenceVariance,
  erfc,
  fisherExact,
  holm,
  mcnemar,
  medianChange,
  normalQuantile,
  pairedBootstrap,
  passAtK,
  passHatK,
  requiredCases,
  requiredRuns,
  sprt,
  wilsonInterval,
} from '../src/stats/index.js';

const close = (actual: number, expected: number, tolerance: number, what = '') =>
  assert.ok(Math.abs(actual - expected) <= tolerance, `${what} ${actual} is not within ${tolerance} of ${expected}`);

test('normal quantiles and erfc match published tables', () => {
  close(normalQuantile(0.975), 1.959963985, 1e-8, 'z 0.975');
  close(normalQuantile(0.8), 0.841621234, 1e-8, 'z 0.8');
  close(normalQuantile(0.001), -3.090232306, 1e-8, 'z 0.001');
  close(normalQuantile(0.5), 0, 1e-12, 'z 0.5');
  close(erfc(1), 0.157299207, 1e-7, 'erfc 1');
  close(erfc(-0.5), 1.520499878, 1e-7, 'erfc -0.5');
  assert.throws(() => normalQuantile(1), RangeError);
});

test('Wilson lower bounds from the reference: 5/5 → 0.566, 10/10 → 0.722, 20/20 → 0.839', () => {
  close(wilsonInterval(5, 5).lower, 0.566, 5e-4);
  close(wilsonInterval(10, 10).lower, 0.722, 5e-4);
  close(wilsonInterval(20, 20).lower, 0.839, 5e-4);
  assert.equal(wilsonInterval(5, 5).upper, 1);
  // 8/10, computed by hand from the score formula: centre 0.7167, half-width 0.2266.
  const { lower, upper } = wilsonInterval(8, 10);
  close(lower, 0.4902, 1e-4);
  close(upper, 0.9433, 1e-4);
  assert.deepEqual(wilsonInterval(0, 0), { lower: 0, upper: 1 });
});

test('McNemar: exact below 25 discordant pairs (6/0 → 0.031, 5/0 → 0.0625), chi-square with continuity from 25', () => {
  close(mcnemar(6, 0).p, 0.03125, 1e-12);
  close(mcnemar(0, 6).p, 0.03125, 1e-12);
  close(mcnemar(5, 0).p, 0.0625, 1e-12);
  assert.equal(mcnemar(6, 0).method, 'exact');
  assert.equal(mcnemar(0, 0).p, 1);
  assert.equal(mcnemar(3, 3).p, 1);
  // 2·P(X ≤ 2), X ~ Bin(12, 1/2) = 2·(1 + 12 + 66)/4096.
  close(mcnemar(10, 2).p, (2 * 79) / 4096, 1e-12);
  // b 20, c 10: χ² = (10 − 1)²/30 = 2.7; P(χ²₁ ≥ 2.7) = 0.10035.
  const large = mcnemar(20, 10);
  assert.equal(large.method, 'chi-square');
  close(large.p, 0.10035, 1e-4);
  assert.equal(mcnemar(12, 12).method, 'exact');
  assert.equal(mcnemar(13, 12).method, 'chi-square');
});

/** The hypergeometric tail computed independently with exact integers. */
function exactTail(basePassed: number, baseRuns: number, headPassed: number, headRuns: number): number {
  const choose = (n: number, k: number): bigint => {
    let r = 1n;
    for (let i = 0; i < k; i++) r = (r * BigInt(n - i)) / BigInt(i + 1);
    return r;
  };
  const passes = basePassed + headPassed;
  const total = baseRuns + headRuns;
  let numerator = 0n;
  for (let x = 0; x <= headPassed; x++)
    if (passes - x <= baseRuns && passes - x >= 0)
      numerator += choose(passes, x) * choose(total - passes, headRuns - x);
  return Number((numerator * 10n ** 15n) / choose(total, headRuns)) / 1e15;
}

test('Fisher: base 10/10, head 6/10 → one-sided p 0.043 (two-sided 0.087); agrees with exact integer sums', () => {
  const result = fisherExact({ basePassed: 10, baseFailed: 0, headPassed: 6, headFailed: 4 });
  close(result.worse, 0.043, 5e-4);
  close(result.worse, 8008 / 184756, 1e-12);
  close(result.twoSided, (2 * 8008) / 184756, 1e-12);
  close(result.better, 1, 1e-12);
  for (const [bp, bn, hp, hn] of [
    [7, 10, 3, 10],
    [20, 25, 12, 25],
    [4, 5, 4, 9],
    [0, 3, 0, 3],
  ] as const) {
    close(
      fisherExact({ basePassed: bp, baseFailed: bn - bp, headPassed: hp, headFailed: hn - hp }).worse,
      exactTail(bp, bn, hp, hn),
      1e-10,
      `${bp}/${bn} vs ${hp}/${hn}`,
    );
  }
  // One run a side can never be significant: 1/1 vs 0/1 gives p = 0.5 one-sided, 1 two-sided.
  const single = fisherExact({ basePassed: 1, baseFailed: 0, headPassed: 0, headFailed: 1 });
  close(single.worse, 0.5, 1e-12);
  close(single.twoSided, 1, 1e-12);
});

test("Holm's step-down correction matches R's p.adjust(…, 'holm')", () => {
  const adjusted = holm([0.01, 0.04, 0.03, 0.005]);
  [0.03, 0.06, 0.06, 0.02].forEach((expected, i) => close(adjusted[i]!, expected, 1e-12));
  assert.deepEqual(holm([0.5, 0.9]), [1, 1]);
  assert.deepEqual(holm([]), []);
});

test('paired bootstrap: seeded and reproducible; its interval matches the normal theory on a large suite', () => {
  // 400 cases, one run a side: 40 regressed, 20 fixed, the rest concordant.
  const cases = Array.from({ length: 400 }, (_, i) =>
    i < 40 ? { base: [1], head: [0] } : i < 60 ? { base: [0], head: [1] } : { base: [1], head: [1] },
  );
  const first = pairedBootstrap(cases, { seed: 7 });
  assert.deepEqual(pairedBootstrap(cases, { seed: 7 }), first);
  close(first.estimate, -20 / 400, 1e-12);
  // d ∈ {−1, 0, 1}: Var(d) = (60/400) − 0.05² (×400/399), SE = √(Var/400).
  const variance = (60 / 400 - 0.05 ** 2) * (400 / 399);
  const se = Math.sqrt(variance / 400);
  close(first.lower, -0.05 - 1.96 * se, 0.006, 'lower');
  close(first.upper, -0.05 + 1.96 * se, 0.006, 'upper');
  assert.equal(first.resamples, 10_000);
});

test('paired bootstrap resamples runs within cases: run-to-run noise widens the interval', () => {
  const stable = Array.from({ length: 30 }, () => ({ base: [1, 1, 1, 1], head: [1, 1, 1, 0] }));
  const result = pairedBootstrap(stable, { seed: 3 });
  close(result.estimate, -0.25, 1e-12);
  assert.ok(result.lower < -0.3 && result.upper > -0.2 && result.upper < 0, `${result.lower}..${result.upper}`);
  const identical = pairedBootstrap(
    Array.from({ length: 10 }, () => ({ base: [1, 0], head: [1, 0] })).map(() => ({ base: [1], head: [1] })),
    { seed: 1 },
  );
  assert.deepEqual([identical.lower, identical.upper], [0, 0]);
});

test('bootstrap of a median change: a uniform shift gives exactly that shift; the interval holds the estimate', () => {
  const shifted = medianChange(
    Array.from({ length: 25 }, (_, i) => ({ base: 100 + i * 10, head: 150 + i * 10 })),
    { seed: 1 },
  );
  assert.deepEqual([shifted.baseMedian, shifted.headMedian, shifted.difference], [220, 270, 50]);
  // Resampled pairs keep the shift only in expectation of the medians; the bounds stay near 50.
  assert.ok(shifted.lower <= 50 && shifted.upper >= 50);
  const noisy = medianChange(
    Array.from({ length: 41 }, (_, i) => ({ base: (i * 37) % 41, head: ((i * 37) % 41) + (i % 2 ? 3 : -1) })),
    { seed: 2 },
  );
  assert.ok(noisy.lower <= noisy.difference && noisy.difference <= noisy.upper);
  assert.deepEqual(
    medianChange(
      Array.from({ length: 41 }, (_, i) => ({ base: (i * 37) % 41, head: ((i * 37) % 41) + (i % 2 ? 3 : -1) })),
      { seed: 2 },
    ),
    noisy,
  );
});

test('sample size from the reference: pass rate 0.8, ρ 0.5, α 0.05, power 0.8 → ≈126 cases for 10 points, ≈502 for 5', () => {
  const variance = differenceVariance(0.8, 0.5);
  close(variance, 0.16, 1e-12);
  const ten = requiredCases(variance, 0.1);
  const five = requiredCases(variance, 0.05);
  close(ten.exact, 125.58, 0.01);
  assert.equal(ten.cases, 126);
  close(five.exact, 502.33, 0.01);
  assert.equal(five.cases, 503);
  // Runs: with 126 cases and no between-case variance, 2 runs a side make Var(d̄) ≤ δ²/(z₁₋α/₂ + z₁₋β)²;
  // 1 run does not.
  assert.equal(requiredRuns(0, 0.32, 126, 0.1).runs, 2);
  assert.equal(requiredRuns(0.5, 0.32, 10, 0.1).runs, undefined, 'more runs cannot beat between-case variance');
});

test("Wald's SPRT: p0 0.95 / p1 0.80 accepts after 10 straight passes and flags at the third failure", () => {
  const test95 = sprt({ p0: 0.95, p1: 0.8, alpha: 0.05, beta: 0.2 });
  assert.equal(test95.decide(9, 0), 'continue');
  assert.equal(test95.decide(10, 0), 'accept');
  // A case that passes now and then: pass, fail, pass, fail, fail.
  const outcomes = [true, false, true, false, false];
  const decisions = outcomes.map((_, i) => {
    const seen = outcomes.slice(0, i + 1);
    return test95.decide(seen.filter(Boolean).length, seen.filter((o) => !o).length);
  });
  assert.deepEqual(decisions, ['continue', 'continue', 'continue', 'continue', 'flag']);
  close(test95.upper, Math.log(16), 1e-12);
  close(test95.lower, Math.log(0.2 / 0.95), 1e-12);
  // Two straight failures reach ln 16 exactly (2·ln 4): the boundary counts, whatever the rounding.
  assert.equal(test95.decide(0, 2), 'flag');
  const defaults = sprt();
  assert.equal(defaults.decide(3, 0), 'continue');
  assert.equal(defaults.decide(4, 0), 'accept');
  assert.equal(defaults.decide(0, 2), 'flag');
  assert.equal(defaults.decide(1, 2), 'continue');
  assert.throws(() => sprt({ p0: 0.6, p1: 0.9 }), RangeError);
});

test('pass^k is C(c,k)/C(n,k) and pass@k is 1 − C(n−c,k)/C(n,k)', () => {
  close(passHatK(10, 8, 2), 28 / 45, 1e-12);
  close(passAtK(10, 8, 2), 1 - 1 / 45, 1e-12);
  assert.equal(passHatK(5, 5, 5), 1);
  assert.equal(passHatK(5, 4, 5), 0);
  close(passHatK(1000, 900, 3), (900 * 899 * 898) / (1000 * 999 * 998), 1e-12);
  assert.throws(() => passHatK(3, 4, 1), RangeError);
});

test('the bootstrap’s shortcuts (no draw for agreeing runs, one binomial draw for pass/fail runs) agree with drawing every run', () => {
  const random = seededRandom(99);
  const cases = Array.from({ length: 60 }, (_, i) => ({
    base: Array.from({ length: 6 }, () => (random() < 0.9 ? 1 : 0)),
    head: Array.from({ length: 6 }, () => (random() < (i % 3 ? 0.85 : 0.5) ? 1 : 0)),
  }));
  // The two-level bootstrap written out the long way.
  const draw = seededRandom(5);
  const pick = (n: number) => Math.floor(draw() * n);
  const naive = new Float64Array(4000);
  for (let r = 0; r < naive.length; r++) {
    let sum = 0;
    for (let i = 0; i < cases.length; i++) {
      const c = cases[pick(cases.length)]!;
      const mean = (runs: number[]) => runs.reduce((a) => a + runs[pick(runs.length)]!, 0) / runs.length;
      sum += mean(c.head) - mean(c.base);
    }
    naive[r] = sum / cases.length;
  }
  naive.sort();
  const fast = pairedBootstrap(cases, { seed: 5, resamples: 4000 });
  close(fast.lower, sortedQuantile(naive, 0.025), 0.015, 'lower');
  close(fast.upper, sortedQuantile(naive, 0.975), 0.015, 'upper');
});

test('the median bootstrap’s counted medians equal the sorted medians, for odd and even counts', () => {
  for (const n of [1, 2, 7, 10, 101]) {
    const random = seededRandom(n);
    const pairs = Array.from({ length: n }, () => ({
      base: Math.round(random() * 1000),
      head: Math.round(random() * 1000),
    }));
    const result = medianChange(pairs, { resamples: 10 });
    assert.equal(result.baseMedian, median(pairs.map((p) => p.base)), `base, n ${n}`);
    assert.equal(result.headMedian, median(pairs.map((p) => p.head)), `head, n ${n}`);
  }
});
