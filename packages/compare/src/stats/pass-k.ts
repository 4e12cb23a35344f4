/**
 * pass^k (tau-bench): the chance that k independent runs all pass, estimated without bias from c
 * passes in n runs as C(c,k)/C(n,k). (p̂^k, the plug-in estimate, is biased upwards.)
 */
export function passHatK(n: number, c: number, k: number): number {
  check(n, c, k);
  return chooseRatio(c, n, k);
}

/** pass@k: the chance that at least one of k runs passes, 1 − C(n−c,k)/C(n,k). */
export function passAtK(n: number, c: number, k: number): number {
  check(n, c, k);
  return 1 - chooseRatio(n - c, n, k);
}

/** C(a,k)/C(n,k) = Π_{i<k} (a−i)/(n−i), as a product so that large n cannot overflow. */
function chooseRatio(a: number, n: number, k: number): number {
  let ratio = 1;
  for (let i = 0; i < k; i++) ratio *= Math.max(0, a - i) / (n - i);
  return ratio;
}

function check(n: number, c: number, k: number): void {
  if (!(Number.isInteger(n) && Number.isInteger(c) && Number.isInteger(k)) || c < 0 || c > n || k < 1 || k > n) {
    throw new RangeError(`pass^k needs whole numbers 0 ≤ c ≤ n and 1 ≤ k ≤ n, got n ${n}, c ${c}, k ${k}`);
  }
}
