import { carryExactText, exactText } from '@agentest/common';

/**
 * JSON with object keys sorted, compact by default: the text form that `contains`, `regex` and
 * failure messages use for non-string outputs, so that the same value always prints the same way
 * (Go's `encoding/json`, which Yao uses, sorts map keys too).
 *
 * Follows `JSON.stringify` otherwise (`toJSON` honoured, `undefined` properties dropped), with three
 * differences that keep it total: top-level `undefined` prints as `null`, a bigint prints as its
 * digits, and a cycle prints as `"[Circular]"` instead of throwing. An integer beyond 2^53 that
 * `parseJson` read from text prints as it was written.
 */
export function stableStringify(value: unknown, indent?: number | string): string {
  // The objects on the path from the root to the value being written: `holder` is what
  // JSON.stringify walks (a sorted copy for plain objects), `original` what a cycle points back to.
  const path: { holder: object; original: object }[] = [];
  let exact = false;
  const replacer = function (this: unknown, key: string, v: unknown): unknown {
    if (typeof v === 'bigint') return v.toString();
    if (typeof v === 'number' && Number.isInteger(v) && !Number.isSafeInteger(v)) {
      // An integer beyond 2^53 parsed from text prints as written, not as the nearest double.
      const text = exactText(this, key);
      if (text === undefined) return v;
      exact = true;
      return EXACT_MARK + text;
    }
    if (v === null || typeof v !== 'object') return v;
    // The replacer runs depth first; leave the path entries that are no longer ancestors of `v`.
    while (path.length && path[path.length - 1]!.holder !== this) path.pop();
    if (path.some((entry) => entry.original === v)) return '[Circular]';
    if (Array.isArray(v) || !isPlainObject(v)) {
      path.push({ holder: v, original: v });
      return v;
    }
    const sorted: Record<string, unknown> = {};
    for (const name of Object.keys(v).sort()) {
      sorted[name] = v[name];
      carryExactText(v, name, sorted, name);
    }
    path.push({ holder: sorted, original: v });
    return sorted;
  };
  const text = JSON.stringify(value, replacer, indent) ?? 'null';
  return exact ? text.replace(EXACT_STRING, '$1') : text;
}

/** Marks a big integer's source text in the output, to be unquoted once JSON.stringify is done. */
const EXACT_MARK = `\u2063exact-${Math.random().toString(36).slice(2)}:`;
const EXACT_STRING = new RegExp(`"${EXACT_MARK}(-?\\d+)"`, 'g');

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * The text an output is searched in: strings as they are, `null`/`undefined` as the empty string,
 * everything else as compact sorted-key JSON. Unlike Go's encoder, `<`, `>` and `&` are not
 * HTML-escaped, so `contains "<b>"` finds `<b>` inside an object output.
 */
export function searchableText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  return stableStringify(value);
}
