/**
 * Structural equality with JSON semantics: object key order never matters, array order does,
 * `1` equals `1.0`, a property holding `undefined` counts as absent, and `undefined` equals `null`
 * (both are "no value" once serialised). Values with `toJSON` (dates) compare by that form.
 */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
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
    for (let i = 0; i < x.length; i++) if (!deepEqual(x[i], y[i])) return false;
    return true;
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let count = 0;
  for (const key of Object.keys(x)) {
    if (x[key] === undefined) continue;
    count++;
    if (!Object.prototype.hasOwnProperty.call(y, key) || !deepEqual(x[key], y[key])) return false;
  }
  for (const key of Object.keys(y)) if (y[key] !== undefined) count--;
  return count === 0;
}

function normalise(value: unknown): unknown {
  if (value === undefined) return null;
  if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    return (value as { toJSON(): unknown }).toJSON();
  }
  return value;
}
