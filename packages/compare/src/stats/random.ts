/** A uniform number in [0, 1). */
export type Random = () => number;

/**
 * A seeded pseudo-random generator (mulberry32): the same seed gives the same resamples, so a
 * comparison's intervals are reproducible run to run and machine to machine. Not for cryptography.
 */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A whole number in [0, n). */
export function randomIndex(random: Random, n: number): number {
  return Math.floor(random() * n);
}
