/** Slots before the first growth; the table doubles whenever it is half full. */
const INITIAL_SLOTS = 1 << 14;

/**
 * The case ids seen so far, as 53-bit fingerprints in an open-addressing table instead of the
 * strings themselves: a million ids take 16 MiB rather than the hundred-odd a `Map` of strings
 * would hold, so a large file streams in near-flat memory.
 *
 * `add` answers `false` for an id that is new for certain, `true` for one that may have been seen:
 * a million distinct ids share a fingerprint with odds of about one in ten thousand, so the caller
 * confirms a `true` against the file itself before calling it a duplicate.
 */
export class IdSet {
  private slots = new Float64Array(INITIAL_SLOTS);
  private size = 0;

  /** Records `id`; returns whether an id with the same fingerprint was recorded before. */
  add(id: string): boolean {
    const fingerprint = hash(id);
    const home = fingerprint % 2 ** 32;
    if (this.probe(home, fingerprint)) return true;
    if (++this.size * 2 > this.slots.length) this.grow();
    this.insert(home, fingerprint);
    return false;
  }

  /** Whether the fingerprint is in the table; slots after the home slot are searched up to a gap. */
  private probe(home: number, fingerprint: number): boolean {
    const mask = this.slots.length - 1;
    for (let i = home & mask; this.slots[i] !== 0; i = (i + 1) & mask) {
      if (this.slots[i] === fingerprint) return true;
    }
    return false;
  }

  private insert(home: number, fingerprint: number): void {
    const mask = this.slots.length - 1;
    let i = home & mask;
    while (this.slots[i] !== 0) i = (i + 1) & mask;
    this.slots[i] = fingerprint;
  }

  /** Doubles the table; a fingerprint's home slot is its low 32 bits, so it is found again. */
  private grow(): void {
    const old = this.slots;
    this.slots = new Float64Array(old.length * 2);
    for (const fingerprint of old) if (fingerprint !== 0) this.insert(fingerprint % 2 ** 32, fingerprint);
  }
}

/**
 * Two 32-bit hashes of the id in one pass (FNV-1a and a multiply-xorshift), joined into one number
 * of 53 bits: the low 32 bits place it in the table, all 53 identify it. Zero marks an empty slot.
 */
function hash(id: string): number {
  let a = 0x811c9dc5;
  let b = 0x9e3779b9 ^ id.length;
  for (let i = 0; i < id.length; i++) {
    const c = id.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x85ebca6b);
    b ^= b >>> 13;
  }
  a ^= a >>> 15;
  b = Math.imul(b ^ (b >>> 16), 0xc2b2ae35);
  return (b >>> 11) * 2 ** 32 + (a >>> 0) || 1;
}
