/** FNV-1a over the string's UTF-16 units: a stable 32-bit seed from any text. */
export function hashString(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** mulberry32: a tiny, fast PRNG with good spread, returning floats in [0, 1). */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Index picked by weight with a draw in [0, 1); weights must not all be zero. */
export function pickWeighted(weights: number[], draw: number): number {
  const total = weights.reduce((a, b) => a + b, 0);
  let point = draw * total;
  for (let i = 0; i < weights.length; i++) {
    point -= weights[i];
    if (point < 0) return i;
  }
  return weights.length - 1;
}
