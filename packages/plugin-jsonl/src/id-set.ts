/** The smallest table: 64 KiB. */
const MIN_SLOTS = 1 << 14;
/** How full the table may get: linear probing stays short up to about three quarters. */
const MAX_LOAD = 0.75;

/**
 * The case ids seen so far, as 4-byte fingerprints in an open-addressing table instead of the
 * strings themselves: a million ids take 8 MiB rather than the hundred-odd a `Map` of strings
 * would hold, so a large file streams in near-flat memory. The table is a power of two in size,
 * at most three quarters full.
 *
 * A slot is chosen by one 32-bit hash of the id and holds another, so two ids collide only if
 * both agree: about 50 bits, which a million distinct ids share with odds of about one in a
 * thousand. `add` answers `false` for an id that is new for certain and `true` for one that may
 * have been seen, which the caller confirms against the file itself.
 *
 * The table does not grow by itself (the slot hash is not stored, so entries could not be moved):
 * it is sized for the expected number of ids, and when `full` the caller builds a larger one from
 * the ids read so far.
 */
export class IdSet {
  private readonly slots: Uint32Array;
  private size = 0;

  constructor(expectedIds: number) {
    let slots = MIN_SLOTS;
    while (slots * MAX_LOAD < expectedIds) slots *= 2;
    this.slots = new Uint32Array(slots);
  }

  /**
   * Gives the table's memory back soon. A large file's table (8 MiB for a million ids) lives
   * long enough to reach the old generation, where it would stay resident until the next full
   * garbage collection, on top of whatever the run allocates next (the kernel's second pass runs
   * the cases). Transferring the buffer detaches it here and hands its memory to a new, unreferenced
   * buffer that the next minor collection frees. The set is unusable afterwards.
   */
  release(): void {
    const buffer = this.slots.buffer as ArrayBuffer;
    if (buffer.byteLength) structuredClone(buffer, { transfer: [buffer] });
  }

  /** How many ids it was sized for; a larger table should be built before more are added. */
  get capacity(): number {
    return Math.floor(this.slots.length * MAX_LOAD);
  }

  get full(): boolean {
    return this.size >= this.capacity;
  }

  /** Records `id`; returns whether an id with the same hashes was recorded before. */
  add(id: string): boolean {
    const slots = this.slots;
    if (slots.length === 0) throw new Error('IdSet.add after release()');
    const mask = slots.length - 1;
    const [home, fingerprint] = hash(id);
    let i = home & mask;
    for (; slots[i] !== 0; i = (i + 1) & mask) if (slots[i] === fingerprint) return true;
    slots[i] = fingerprint;
    this.size++;
    return false;
  }
}

const pair: [number, number] = [0, 0];

/**
 * Two independent 32-bit hashes of the id in one pass (FNV-1a, and a multiply-xorshift with
 * another seed). Zero marks an empty slot, so a zero fingerprint becomes one.
 */
function hash(id: string): [number, number] {
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
  b ^= b >>> 16;
  pair[0] = a >>> 0;
  pair[1] = b >>> 0 || 1;
  return pair;
}
