/** A 2×2 table of runs: passes and failures on each side. */
export interface PassTable {
  basePassed: number;
  baseFailed: number;
  headPassed: number;
  headFailed: number;
}

export interface FisherResult {
  /** One-sided p for "head passes less often than base" (a regression). */
  worse: number;
  /** One-sided p for "head passes more often than base" (a fix). */
  better: number;
  /** Two-sided p: every table at most as likely as the observed one. */
  twoSided: number;
}

/**
 * Fisher's exact test on a case's runs. With the margins fixed, head's pass count X follows the
 * hypergeometric distribution; each p-value sums its probabilities. Worked value: base 10/10, head
 * 6/10 → `worse` = C(16,6)·C(4,4)/C(20,10) = 0.0433.
 */
export function fisherExact(table: PassTable): FisherResult {
  const { basePassed, baseFailed, headPassed, headFailed } = table;
  const passes = basePassed + headPassed;
  const headRuns = headPassed + headFailed;
  const total = passes + baseFailed + headFailed;
  const low = Math.max(0, headRuns - (total - passes));
  const high = Math.min(headRuns, passes);
  const logDenominator = logChoose(total, headRuns);
  const probability = (x: number) =>
    Math.exp(logChoose(passes, x) + logChoose(total - passes, headRuns - x) - logDenominator);
  const observed = probability(headPassed);
  let worse = 0;
  let better = 0;
  let twoSided = 0;
  for (let x = low; x <= high; x++) {
    const p = probability(x);
    if (x <= headPassed) worse += p;
    if (x >= headPassed) better += p;
    // The tolerance keeps tables exactly as likely as the observed one from being lost to rounding (as R does).
    if (p <= observed * (1 + 1e-7)) twoSided += p;
  }
  return { worse: Math.min(1, worse), better: Math.min(1, better), twoSided: Math.min(1, twoSided) };
}

const logFactorials: number[] = [0];

function logFactorial(n: number): number {
  for (let i = logFactorials.length; i <= n; i++) logFactorials[i] = logFactorials[i - 1]! + Math.log(i);
  return logFactorials[n]!;
}

function logChoose(n: number, k: number): number {
  return logFactorial(n) - logFactorial(k) - logFactorial(n - k);
}
