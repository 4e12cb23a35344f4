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
  constructor(message: string, readonly actual?: unknown) {
    super(message);
  }
}

export function misuse(message: string, actual?: unknown): never {
  throw new MatcherMisuse(message, actual);
}

/** The common case: "expected <received> [not ]<phrase>". */
export function verdict(pass: boolean, received: unknown, phrase: string, expected?: unknown, extra = ''): MatcherOutcome {
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

export function requireObject(matcher: string, value: unknown): Record<string, unknown> {
  if (typeof value === 'object' && value !== null) return value as Record<string, unknown>;
  return misuse(`${matcher} needs an agent result object (what ctx.run returns), got ${show(value)}`, value);
}
