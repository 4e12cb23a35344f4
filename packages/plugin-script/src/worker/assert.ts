import { cloneable, formatValue } from './describe.js';
import { deepEqual, isNil, typeName } from './equal.js';
import { readPath, toRegExp } from './pattern.js';

/** What a failed `t.assert.*` call records; the first one becomes the test's `details.assertion`. */
export interface AssertionFailure {
  type: string;
  expected?: unknown;
  actual?: unknown;
  message: string;
}

/** A check returns nothing when it passes, or why it failed. */
type Failure = { expected?: unknown; actual?: unknown; text: string } | undefined;

interface Method {
  /** How many leading arguments are required; the next one (if a string) is the message. */
  arity: number;
  requires: string;
  check(...args: any[]): Failure;
}

const fmt = formatValue;
const numberPair = (a: unknown, b: unknown) => [Number(a), Number(b)] as const;

function compare(op: string, test: (a: number, b: number) => boolean): Method {
  return {
    arity: 2,
    requires: 'two values',
    check: (a, b) => {
      const [x, y] = numberPair(a, b);
      if (Number.isNaN(x) || Number.isNaN(y))
        return { expected: `${op} ${fmt(b)}`, actual: a, text: `cannot compare ${fmt(a)} and ${fmt(b)} as numbers` };
      return test(x, y) ? undefined : { expected: `${op} ${y}`, actual: x, text: `expected ${x} ${op} ${y}` };
    },
  };
}

function length(value: unknown): number | undefined {
  if (isNil(value)) return 0;
  if (typeof value === 'string') return [...value].length;
  if (Array.isArray(value)) return value.length;
  const tag = Object.prototype.toString.call(value);
  if (tag === '[object Map]' || tag === '[object Set]') return (value as Set<unknown>).size;
  if (typeof value === 'object') return Object.keys(value as object).length;
  return undefined;
}

/** Substring for strings, membership (deep equality) for arrays, key presence for plain objects. */
function contains(haystack: unknown, needle: unknown): boolean {
  if (Array.isArray(haystack)) return haystack.some((item) => deepEqual(item, needle));
  if (
    haystack !== null &&
    typeof haystack === 'object' &&
    Object.prototype.toString.call(haystack) === '[object Object]'
  ) {
    return typeof needle === 'string' && Object.prototype.hasOwnProperty.call(haystack, needle);
  }
  return String(haystack).includes(String(needle));
}

/** An error value is anything but `null`, `undefined`, `false` and `''` (Go's `err != nil`, for JS). */
const isError = (value: unknown) => !(isNil(value) || value === false || value === '');

function threw(fn: () => unknown): { threw: boolean; error?: unknown } {
  try {
    fn();
    return { threw: false };
  } catch (error) {
    return { threw: true, error };
  }
}

function match(value: unknown, pattern: unknown, want: boolean): Failure {
  let re: RegExp;
  try {
    re = toRegExp(pattern);
  } catch (error) {
    return { expected: String(pattern), actual: value, text: `invalid regex pattern: ${(error as Error).message}` };
  }
  if (re.test(String(value)) === want) return undefined;
  return {
    expected: String(pattern),
    actual: value,
    text: `${fmt(value)} ${want ? 'does not match' : 'matches'} ${re}`,
  };
}

/** The 21 methods of the seed's table, with the semantics of Yao's `t.assert` minus its quirks. */
export const ASSERT_METHODS: Record<string, Method> = {
  True: {
    arity: 1,
    requires: 'a value',
    check: (v) => (v ? undefined : { expected: true, actual: v, text: 'expected true, got false' }),
  },
  False: {
    arity: 1,
    requires: 'a value',
    check: (v) => (!v ? undefined : { expected: false, actual: v, text: 'expected false, got true' }),
  },
  Equal: {
    arity: 2,
    requires: 'actual and expected arguments',
    check: (a, e) =>
      deepEqual(a, e) ? undefined : { expected: e, actual: a, text: `expected ${fmt(e)}, got ${fmt(a)}` },
  },
  NotEqual: {
    arity: 2,
    requires: 'actual and expected arguments',
    check: (a, e) =>
      !deepEqual(a, e)
        ? undefined
        : { expected: `not ${fmt(e)}`, actual: a, text: `expected values to be different, both are ${fmt(a)}` },
  },
  Nil: {
    arity: 1,
    requires: 'a value',
    check: (v) => (isNil(v) ? undefined : { expected: null, actual: v, text: `expected nil, got ${fmt(v)}` }),
  },
  NotNil: {
    arity: 1,
    requires: 'a value',
    check: (v) => (!isNil(v) ? undefined : { expected: 'not nil', actual: v, text: `expected a value, got ${fmt(v)}` }),
  },
  Contains: {
    arity: 2,
    requires: 'a value and the part it should contain',
    check: (s, sub) =>
      contains(s, sub) ? undefined : { expected: sub, actual: s, text: `${fmt(s)} does not contain ${fmt(sub)}` },
  },
  NotContains: {
    arity: 2,
    requires: 'a value and the part it should not contain',
    check: (s, sub) =>
      !contains(s, sub)
        ? undefined
        : { expected: `not ${fmt(sub)}`, actual: s, text: `${fmt(s)} contains ${fmt(sub)}` },
  },
  Len: {
    arity: 2,
    requires: 'a value and a length',
    check: (v, n) => {
      const actual = length(v);
      const want = Math.trunc(Number(n));
      if (actual === undefined)
        return { expected: want, actual: v, text: `cannot take the length of a ${typeName(v)}` };
      return actual === want ? undefined : { expected: want, actual, text: `expected length ${want}, got ${actual}` };
    },
  },
  Greater: compare('>', (a, b) => a > b),
  GreaterOrEqual: compare('>=', (a, b) => a >= b),
  Less: compare('<', (a, b) => a < b),
  LessOrEqual: compare('<=', (a, b) => a <= b),
  Error: {
    arity: 1,
    requires: 'a value',
    check: (e) => (isError(e) ? undefined : { expected: 'an error', actual: e, text: 'expected an error, got none' }),
  },
  NoError: {
    arity: 1,
    requires: 'a value',
    check: (e) => (!isError(e) ? undefined : { expected: null, actual: e, text: `expected no error, got ${fmt(e)}` }),
  },
  Panic: {
    arity: 1,
    requires: 'a function',
    check: (fn) => {
      if (typeof fn !== 'function')
        return { expected: 'a function', actual: typeName(fn), text: 'Panic requires a function' };
      return threw(fn).threw
        ? undefined
        : { expected: 'a throw', actual: 'returned normally', text: 'expected the function to throw' };
    },
  },
  NoPanic: {
    arity: 1,
    requires: 'a function',
    check: (fn) => {
      if (typeof fn !== 'function')
        return { expected: 'a function', actual: typeName(fn), text: 'NoPanic requires a function' };
      const outcome = threw(fn);
      return outcome.threw
        ? { expected: 'no throw', actual: fmt(outcome.error), text: `expected no throw, got ${fmt(outcome.error)}` }
        : undefined;
    },
  },
  Match: { arity: 2, requires: 'a value and a pattern', check: (v, p) => match(v, p, true) },
  NotMatch: { arity: 2, requires: 'a value and a pattern', check: (v, p) => match(v, p, false) },
  Type: {
    arity: 2,
    requires: 'a value and a type name',
    check: (v, name) =>
      typeName(v) === name
        ? undefined
        : { expected: name, actual: typeName(v), text: `expected type ${name}, got ${typeName(v)}` },
  },
  JSONPath: {
    arity: 3,
    requires: 'an object, a path and the expected value',
    check: (obj, path, expected) => {
      const read = readPath(obj, String(path));
      if (!read.found) return { expected, actual: undefined, text: `path ${path} not found` };
      return deepEqual(read.value, expected)
        ? undefined
        : { expected, actual: read.value, text: `at ${path}: expected ${fmt(expected)}, got ${fmt(read.value)}` };
    },
  },
};

/**
 * Builds `t.assert`. No method throws: each failure is recorded and the test goes on, like Go's
 * `t.Error`. A string message after the required arguments replaces the default text.
 */
export function createAssert(
  onFailure: (failure: AssertionFailure) => void,
): Record<string, (...args: unknown[]) => boolean> {
  const assert: Record<string, (...args: unknown[]) => boolean> = {};
  for (const [type, method] of Object.entries(ASSERT_METHODS)) {
    assert[type] = (...args: unknown[]) => {
      const custom = typeof args[method.arity] === 'string' ? (args[method.arity] as string) : undefined;
      const failure: Failure =
        args.length < method.arity ? { text: `${type} requires ${method.requires}` } : method.check(...args);
      if (!failure) return true;
      onFailure({
        type,
        ...('expected' in failure ? { expected: cloneable(failure.expected) } : {}),
        ...('actual' in failure ? { actual: cloneable(failure.actual) } : {}),
        message: custom ?? failure.text,
      });
      return false;
    };
  }
  return Object.freeze(assert);
}
