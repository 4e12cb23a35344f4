/**
 * Structural equality as `toEqual` means it: key order never matters, properties whose value is
 * `undefined` count as absent, primitives compare with `Object.is` (so `NaN` equals `NaN`), and
 * Dates, RegExps, Maps and Sets compare by content. `difference` also says where two values part.
 */
export function equals(a: unknown, b: unknown): boolean {
  return difference(a, b) === undefined;
}

/** The path of the first difference (`''` for the values themselves), or `undefined` when equal. */
export function difference(a: unknown, b: unknown): string | undefined {
  return diff(a, b, '', []);
}

/**
 * True when `actual` contains everything `expected` lists: objects may carry extra keys, at any depth;
 * arrays and primitives must be equal. Used where a caller names only the fields it cares about.
 */
export function matchesSubset(actual: unknown, expected: unknown): boolean {
  if (!isRecord(expected) || !isRecord(actual) || Array.isArray(expected)) return equals(actual, expected);
  return Object.entries(expected).every(
    ([key, value]) => value === undefined || (key in actual && matchesSubset(actual[key], value)),
  );
}

function diff(a: unknown, b: unknown, path: string, stack: [unknown, unknown][]): string | undefined {
  if (Object.is(a, b)) return undefined;
  if (!isRecord(a) || !isRecord(b)) return path;
  if (stack.some(([x, y]) => x === a && y === b)) return undefined;
  if (Array.isArray(a) !== Array.isArray(b)) return path;
  stack.push([a, b]);
  try {
    return diffObjects(a, b, path, stack);
  } finally {
    stack.pop();
  }
}

function diffObjects(
  a: Record<string, unknown>,
  b: Record<string, unknown>,
  path: string,
  stack: [unknown, unknown][],
): string | undefined {
  if (a instanceof Date || b instanceof Date)
    return a instanceof Date && b instanceof Date && Object.is(a.getTime(), b.getTime()) ? undefined : path;
  if (a instanceof RegExp || b instanceof RegExp)
    return a instanceof RegExp && b instanceof RegExp && String(a) === String(b) ? undefined : path;
  if (a instanceof Map || b instanceof Map)
    return a instanceof Map && b instanceof Map ? diffMaps(a, b, path, stack) : path;
  if (a instanceof Set || b instanceof Set)
    return a instanceof Set && b instanceof Set ? diffSets(a, b, path, stack) : path;
  if (isBoxed(a) || isBoxed(b))
    return isBoxed(a) && isBoxed(b) && Object.is(a.valueOf(), b.valueOf()) ? undefined : path;
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return `${path}.length`;
    for (let i = 0; i < a.length; i++) {
      const at = diff(a[i], b[i], `${path}[${i}]`, stack);
      if (at !== undefined) return at;
    }
    return undefined;
  }
  const keys = new Set([...definedKeys(a), ...definedKeys(b)]);
  for (const key of keys) {
    const at = diff(
      a[key],
      b[key],
      `${path}${/^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`}`,
      stack,
    );
    if (at !== undefined) return at;
  }
  return undefined;
}

function diffMaps(
  a: Map<unknown, unknown>,
  b: Map<unknown, unknown>,
  path: string,
  stack: [unknown, unknown][],
): string | undefined {
  if (a.size !== b.size) return `${path}.size`;
  for (const [key, value] of a) {
    if (!b.has(key)) return path;
    const at = diff(value, b.get(key), `${path}.get(${String(key)})`, stack);
    if (at !== undefined) return at;
  }
  return undefined;
}

function diffSets(a: Set<unknown>, b: Set<unknown>, path: string, stack: [unknown, unknown][]): string | undefined {
  if (a.size !== b.size) return `${path}.size`;
  const rest = [...b];
  for (const value of a) {
    const index = rest.findIndex((other) => diff(value, other, '', stack) === undefined);
    if (index < 0) return path;
    rest.splice(index, 1);
  }
  return undefined;
}

function definedKeys(object: Record<string, unknown>): string[] {
  return Object.keys(object).filter((key) => object[key] !== undefined);
}

/** A `new Number(1)`, `new String('a')` or `new Boolean(true)`: compared by what `valueOf()` returns. */
function isBoxed(value: object): boolean {
  return value instanceof Number || value instanceof String || value instanceof Boolean;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
