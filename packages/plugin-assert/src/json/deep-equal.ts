import { exactText, sameExactNumber } from '@agentest/common';

/**
 * Structural equality with JSON semantics: object key order never matters, array order does,
 * `1` equals `1.0`, a property holding `undefined` counts as absent, and `undefined` equals `null`
 * (both are "no value" once serialised). Values with `toJSON` (dates) compare by that form.
 *
 * Integers beyond 2^53 parsed by `parseJson` (the JSONL file, JSON in a text reply) compare by their
 * source text, so `12345678901234567890` does not equal `12345678901234567891`; `aText`/`bText` are
 * the source texts of `a` and `b` themselves, when they are such numbers.
 */
export function deepEqual(a: unknown, b: unknown, aText?: string, bText?: string): boolean {
  if (a === b) return typeof a !== 'number' || sameExactNumber(a, aText, bText);
  a = normalise(a);
  b = normalise(b);
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') {
    return typeof a === 'bigint' || typeof b === 'bigint' ? String(a) === String(b) : false;
  }
  const aIsArray = Array.isArray(a);
  if (aIsArray !== Array.isArray(b)) return false;
  if (aIsArray) {
    const x = a as unknown[];
    const y = b as unknown[];
    if (x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (!equalAt(x, y, i)) return false;
    return true;
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let count = 0;
  for (const key of Object.keys(x)) {
    if (x[key] === undefined) continue;
    count++;
    if (!Object.prototype.hasOwnProperty.call(y, key) || !equalAt(x, y, key)) return false;
  }
  for (const key of Object.keys(y)) if (y[key] !== undefined) count--;
  return count === 0;
}

/** `x[key]` and `y[key]`, with the source texts of big integers looked up only when they matter. */
function equalAt(x: object, y: object, key: string | number): boolean {
  const a = (x as Record<string | number, unknown>)[key];
  const b = (y as Record<string | number, unknown>)[key];
  if (a !== b) return deepEqual(a, b);
  return typeof a !== 'number' || Number.isSafeInteger(a) || sameExactNumber(a, exactText(x, key), exactText(y, key));
}

function normalise(value: unknown): unknown {
  if (value === undefined) return null;
  if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    return (value as { toJSON(): unknown }).toJSON();
  }
  return value;
}
