/**
 * Structural equality with JSON's view of data, the way Yao's `Equal` means it but without its bugs:
 * key order never matters, `1` equals `1.0`, `"1"` is not `1`, arrays are ordered, `null` and `undefined`
 * are both "nil" (so `{a: undefined}` equals `{}`), and `NaN` equals `NaN`. Works across realms, so values
 * created inside a sandbox compare with values created outside it.
 */
export function deepEqual(a: unknown, b: unknown, seen = new Map<object, object>()): boolean {
  if (isNil(a) || isNil(b)) return isNil(a) && isNil(b);
  if (typeof a === 'number' && typeof b === 'number') return a === b || (Number.isNaN(a) && Number.isNaN(b));
  if (typeof a !== 'object' || typeof b !== 'object') return a === b;
  if (a === b) return true;
  if (seen.get(a as object) === b) return true;
  seen.set(a as object, b as object);

  const tagA = tag(a);
  if (tagA !== tag(b)) return false;
  switch (tagA) {
    case 'Array':
      return arrayEqual(a as unknown[], b as unknown[], seen);
    case 'Date':
      return (a as Date).getTime() === (b as Date).getTime();
    case 'RegExp':
      return String(a) === String(b);
    case 'Map':
      return arrayEqual(sortedEntries(a as Map<unknown, unknown>), sortedEntries(b as Map<unknown, unknown>), seen);
    case 'Set':
      return setEqual(a as Set<unknown>, b as Set<unknown>, seen);
    case 'Number':
    case 'String':
    case 'Boolean':
      return deepEqual((a as object).valueOf(), (b as object).valueOf(), seen);
    default:
      return objectEqual(a as Record<string, unknown>, b as Record<string, unknown>, seen);
  }
}

export function isNil(value: unknown): value is null | undefined {
  return value === null || value === undefined;
}

function tag(value: unknown): string {
  return Object.prototype.toString.call(value).slice(8, -1);
}

function arrayEqual(a: readonly unknown[], b: readonly unknown[], seen: Map<object, object>): boolean {
  return a.length === b.length && a.every((item, i) => deepEqual(item, b[i], seen));
}

function objectEqual(a: Record<string, unknown>, b: Record<string, unknown>, seen: Map<object, object>): boolean {
  const keysA = definedKeys(a);
  const keysB = definedKeys(b);
  if (keysA.length !== keysB.length) return false;
  return keysA.every((key) => Object.prototype.hasOwnProperty.call(b, key) && deepEqual(a[key], b[key], seen));
}

function definedKeys(value: Record<string, unknown>): string[] {
  return Object.keys(value).filter((key) => value[key] !== undefined && typeof value[key] !== 'function');
}

function sortedEntries(map: Map<unknown, unknown>): unknown[] {
  return [...map.entries()].sort(([x], [y]) => String(x).localeCompare(String(y)));
}

function setEqual(a: Set<unknown>, b: Set<unknown>, seen: Map<object, object>): boolean {
  if (a.size !== b.size) return false;
  const rest = [...b];
  for (const item of a) {
    const at = rest.findIndex((other) => deepEqual(item, other, seen));
    if (at < 0) return false;
    rest.splice(at, 1);
  }
  return true;
}

/** Yao's type names for `Type(v, name)`: BigInt and symbols are `unknown`, as in Yao. */
export function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  const type = typeof value;
  return type === 'bigint' || type === 'symbol' ? 'unknown' : type;
}
