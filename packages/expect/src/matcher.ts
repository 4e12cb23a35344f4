import { AssertionError } from './assertion-error.js';
import { show } from './format.js';

/**
 * What a matcher returns. `message` is asked for only when the expectation fails, and is told whether
 * it ran under `.not`, so each matcher words both directions itself.
 */
export interface MatcherOutcome {
  pass: boolean;
  message(negated: boolean): string;
  expected?: unknown;
  actual?: unknown;
}

/** A matcher: the received value first, then the arguments the user passed. */
export type Matcher = (received: unknown, ...args: any[]) => MatcherOutcome;

/**
 * Thrown by a matcher that cannot judge the value at all (a number matcher given a string, a hit-rate
 * matcher given a result without a rate). It fails the expectation with or without `.not`: a check
 * that could not look must never pass.
 */
export class MatcherMisuse extends Error {
  override readonly name = 'MatcherMisuse';
  constructor(
    message: string,
    readonly actual?: unknown,
  ) {
    super(message);
  }
}

export function misuse(message: string, actual?: unknown): never {
  throw new MatcherMisuse(message, actual);
}

/** Returned by a subject's `read` for a value the matcher cannot look at. */
export const CANNOT_JUDGE: unique symbol = Symbol('cannot judge');

/**
 * The kind of value a matcher can judge, and how to read it: `read` returns what the matcher looks
 * at (a string holding JSON becomes the parsed value) or `CANNOT_JUDGE`.
 */
export interface Subject<T = unknown> {
  /** Said in the failure: "toHaveProperty needs <what>, got undefined". */
  what: string;
  read(received: unknown): T | typeof CANNOT_JUDGE;
}

const SUBJECT = Symbol('subject');

/**
 * Declares the values `matcher` can judge. The machinery (`runMatcher`) reads the received value
 * through `subject` before the matcher sees it; a value outside fails the expectation with or
 * without `.not`, for every matcher alike.
 */
export function judging<T, A extends any[]>(
  subject: Subject<T>,
  matcher: (value: T, ...args: A) => MatcherOutcome,
): Matcher {
  return Object.assign(matcher as Matcher, { [SUBJECT]: subject });
}

/** The subjects the built-in matchers declare; `expect.extend` matchers may use them too. */
export const subjects = {
  /** Anything with properties to look into: every value but `null` and `undefined`. */
  present: {
    what: 'a value to look into (not null or undefined)',
    read: (v) => (v === null || v === undefined ? CANNOT_JUDGE : v),
  } as Subject<unknown>,
  /** A number or a bigint; a numeric string is not one. */
  number: {
    what: 'the received value to be a number',
    read: (v) => (typeof v === 'number' || typeof v === 'bigint' ? v : CANNOT_JUDGE),
  } as Subject<number | bigint>,
  /** An object, as an agent result (what `ctx.run` returns) is. */
  result: {
    what: 'an agent result object (what ctx.run returns)',
    read: (v) => (typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : CANNOT_JUDGE),
  } as Subject<Record<string, unknown>>,
  /** An object or an array, or a string holding one in JSON (parsed, as the `json_path` assertion does). */
  json: { what: 'JSON: an object, an array, or a string holding one', read: readJson } as Subject<object>,
};

function readJson(value: unknown): object | typeof CANNOT_JUDGE {
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return CANNOT_JUDGE;
    }
  }
  return typeof value === 'object' && value !== null ? value : CANNOT_JUDGE;
}

/**
 * Runs one matcher for `expect(received)[.not].<name>(...args)` and throws the AssertionError when
 * the expectation fails. A value outside the matcher's subject, or a matcher that says it cannot
 * judge (`misuse`), fails both ways: *could not judge* is never *judged false*.
 */
export function runMatcher(matcher: Matcher, name: string, received: unknown, negated: boolean, args: unknown[]): void {
  const called = negated ? `not.${name}` : name;
  let outcome: MatcherOutcome;
  try {
    const subject = (matcher as { [SUBJECT]?: Subject })[SUBJECT];
    const value = subject ? subject.read(received) : received;
    if (value === CANNOT_JUDGE) misuse(`${name} needs ${subject!.what}, got ${show(received)}`, received);
    outcome = matcher(value, ...args);
  } catch (error) {
    if (error instanceof MatcherMisuse)
      throw new AssertionError(error.message, { matcher: called, actual: error.actual });
    throw error;
  }
  if (outcome.pass !== negated) return;
  const details = {
    matcher: called,
    ...('expected' in outcome ? { expected: outcome.expected } : {}),
    ...('actual' in outcome ? { actual: outcome.actual } : {}),
  };
  throw new AssertionError(outcome.message(negated), details);
}

/** The common case: "expected <received> [not ]<phrase>". */
export function verdict(
  pass: boolean,
  received: unknown,
  phrase: string,
  expected?: unknown,
  extra = '',
): MatcherOutcome {
  return {
    pass,
    actual: received,
    ...(expected === undefined ? {} : { expected }),
    message: (negated) => `expected ${show(received)} ${negated ? 'not ' : ''}${phrase}${extra}`,
  };
}

export function requireNumber(matcher: string, value: unknown, what = 'the received value'): number | bigint {
  if (typeof value === 'number' || typeof value === 'bigint') return value;
  return misuse(`${matcher} needs ${what} to be a number, got ${show(value)}`, value);
}
