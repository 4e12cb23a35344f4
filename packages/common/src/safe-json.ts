/**
 * JSON for reports that must be written whatever a case carries. `JSON.stringify` throws on a cycle,
 * a BigInt, a throwing `toJSON` or getter, and overflows the stack on a value nested a few thousand
 * levels deep; one such value would cost a reporter its whole file. Here the offending value is
 * replaced by a marker string (`"[unserialisable: …]"`) and everything else is written as usual.
 */

/** Values nested deeper than this are cut off with a marker once the plain path has failed. */
export const MAX_SERIALISED_DEPTH = 1000;

/** The text that stands in for a value JSON cannot carry. */
export function unserialisableMarker(reason: string): string {
  return `[unserialisable: ${reason}]`;
}

/**
 * `JSON.stringify(value, null, space)`, except that it never throws: a value it cannot write is
 * replaced by a marker. The common case costs one plain `JSON.stringify`; only a value that makes it
 * throw is copied (with the markers) and written again.
 */
export function safeStringify(value: unknown, space?: number): string | undefined {
  try {
    return JSON.stringify(value, null, space);
  } catch {
    try {
      return JSON.stringify(serialisable(value), null, space);
    } catch (error) {
      // Only a result too long for a string is left (RangeError: Invalid string length).
      return JSON.stringify(unserialisableMarker(error instanceof Error ? error.message : String(error)));
    }
  }
}

/**
 * A copy of `value` that `JSON.stringify` can write: cycles, BigInts, throwing `toJSON`s and
 * getters, and anything nested deeper than `maxDepth` become marker strings.
 */
export function serialisable(value: unknown, maxDepth = MAX_SERIALISED_DEPTH): unknown {
  return copy(value, 0, maxDepth, new Set());
}

function copy(value: unknown, depth: number, maxDepth: number, ancestors: Set<object>): unknown {
  if (typeof value === 'bigint') return unserialisableMarker(`BigInt ${value.toString()}`);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= maxDepth) return unserialisableMarker(`nested deeper than ${maxDepth} levels`);
  if (ancestors.has(value)) return unserialisableMarker('circular reference');
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === 'function') {
    let target: unknown;
    try {
      target = toJSON.call(value);
    } catch (error) {
      return unserialisableMarker(`toJSON threw: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (target !== value) return copy(target, depth, maxDepth, ancestors);
  }
  ancestors.add(value);
  try {
    if (Array.isArray(value)) return value.map((item) => copy(item, depth + 1, maxDepth, ancestors));
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      let item: unknown;
      try {
        item = (value as Record<string, unknown>)[key];
      } catch (error) {
        item = unserialisableMarker(
          `reading "${key}" threw: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      out[key] = copy(item, depth + 1, maxDepth, ancestors);
    }
    return out;
  } finally {
    ancestors.delete(value);
  }
}
