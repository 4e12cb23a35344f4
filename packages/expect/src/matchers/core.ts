import { difference, equals, isRecord } from '../equals.js';
import { show } from '../format.js';
import { judging, misuse, subjects, verdict, type Matcher } from '../matcher.js';

/** The general-purpose matchers: identity, structure, truthiness, containment, shape. */
export const coreMatchers = {
  toBe(received, expected: unknown) {
    const hint =
      isRecord(received) && equals(received, expected) ? ' (same structure but not the same object: use toEqual)' : '';
    return verdict(Object.is(received, expected), received, `to be ${show(expected)}`, expected, hint);
  },

  toEqual(received, expected: unknown) {
    const at = difference(received, expected);
    const where = at ? ` (first difference at ${at})` : '';
    return verdict(at === undefined, received, `to equal ${show(expected)}`, expected, where);
  },

  toBeTruthy: (received) => verdict(Boolean(received), received, 'to be truthy'),
  toBeFalsy: (received) => verdict(!received, received, 'to be falsy'),
  toBeNull: (received) => verdict(received === null, received, 'to be null', null),
  toBeUndefined: (received) => verdict(received === undefined, received, 'to be undefined'),
  toBeDefined: (received) => verdict(received !== undefined, received, 'to be defined'),

  /** Strings: a substring. Arrays and Sets: an element equal to `item` (structurally, so objects match too). */
  toContain(received, item: unknown) {
    if (typeof received === 'string') {
      if (typeof item !== 'string')
        misuse(`toContain on a string needs a string to look for, got ${show(item)}`, received);
      return verdict(received.includes(item), received, `to contain ${show(item)}`, item);
    }
    if (Array.isArray(received) || received instanceof Set) {
      const found = [...received].some((element) => Object.is(element, item) || equals(element, item));
      return verdict(found, received, `to contain ${show(item)}`, item);
    }
    return misuse(`toContain needs a string, an array or a Set, got ${show(received)}`, received);
  },

  toMatch(received, pattern: RegExp | string) {
    if (typeof received !== 'string') misuse(`toMatch needs a string, got ${show(received)}`, received);
    if (typeof pattern === 'string')
      return verdict(received.includes(pattern), received, `to match ${show(pattern)}`, pattern);
    if (!(pattern instanceof RegExp))
      misuse(`toMatch needs a RegExp or a string pattern, got ${show(pattern)}`, received);
    pattern.lastIndex = 0;
    return verdict(pattern.test(received), received, `to match ${String(pattern)}`, String(pattern));
  },

  toHaveLength(received, length: number) {
    if (!Number.isInteger(length) || length < 0)
      misuse(`toHaveLength needs a whole number ≥ 0, got ${show(length)}`, received);
    const actual = (received as { length?: unknown } | null | undefined)?.length;
    if (typeof actual !== 'number')
      misuse(`toHaveLength needs a value with a length (string, array), got ${show(received)}`, received);
    return verdict(actual === length, received, `to have length ${length}`, length, `, got ${actual}`);
  },

  /** `path` is `'a.b[0].c'` or `['a', 'b', 0, 'c']`; with a value, the property must also equal it. */
  toHaveProperty: judging(subjects.present, (received, path: string | (string | number)[], ...value: unknown[]) => {
    const keys = typeof path === 'string' ? parsePath(path) : path;
    if (!Array.isArray(keys) || keys.length === 0)
      misuse(`toHaveProperty needs a non-empty path, got ${show(path)}`, received);
    const shown = typeof path === 'string' ? path : keys.join('.');
    const found = walk(received, keys);
    if (value.length === 0) return verdict(found.exists, received, `to have property "${shown}"`);
    const same = found.exists && equals(found.value, value[0]);
    const got = found.exists ? `, got ${show(found.value)}` : ', but it is missing';
    return {
      ...verdict(same, received, `to have property "${shown}" equal to ${show(value[0])}`, value[0], got),
      actual: found.value,
    };
  }),
} satisfies Record<string, Matcher>;

function parsePath(path: string): string[] {
  return path
    .split(/\.|\[(\d+|"[^"]*"|'[^']*')\]/)
    .filter((part) => part !== undefined && part !== '')
    .map((part) => part.replace(/^["']|["']$/g, ''));
}

function walk(value: unknown, keys: readonly (string | number)[]): { exists: boolean; value?: unknown } {
  let current = value;
  for (const key of keys) {
    if (current === null || current === undefined) return { exists: false };
    const holder = Object(current) as Record<string | number, unknown>;
    if (!(key in holder)) return { exists: false };
    current = holder[key];
  }
  return { exists: true, value: current };
}
