import { AssertionError } from './assertion-error.js';
import { runMatcher, type Matcher } from './matcher.js';
import { satisfy, type SatisfyOptions } from './satisfy.js';
import { matchSnapshot } from './snapshot.js';
import { agentMatchers } from './matchers/agent.js';
import { aiMatchers } from './matchers/ai.js';
import { coreMatchers } from './matchers/core.js';
import { numberMatchers } from './matchers/numbers.js';

/** Every built-in matcher; each returns the assertion again, so expectations chain. */
export interface Assertion {
  /** The same matchers with the verdict inverted; `.not.not` is the plain form. */
  readonly not: Assertion;
  toBe(expected: unknown): Assertion;
  toEqual(expected: unknown): Assertion;
  toBeTruthy(): Assertion;
  toBeFalsy(): Assertion;
  toBeNull(): Assertion;
  toBeUndefined(): Assertion;
  toBeDefined(): Assertion;
  toContain(item: unknown): Assertion;
  toMatch(pattern: RegExp | string): Assertion;
  toHaveLength(length: number): Assertion;
  toHaveProperty(path: string | (string | number)[], value?: unknown): Assertion;
  toBeGreaterThan(n: number | bigint): Assertion;
  toBeGreaterThanOrEqual(n: number | bigint): Assertion;
  toBeLessThan(n: number | bigint): Assertion;
  toBeLessThanOrEqual(n: number | bigint): Assertion;
  toBeCloseTo(n: number, digits?: number): Assertion;
  toHaveStructure(): Assertion;
  toHaveIntent(intent: string): Assertion;
  toHaveKeyword(keyword: string): Assertion;
  toMention(word: string): Assertion;
  toHitRate(threshold: number): Assertion;
  toHaveCalledTool(name: string, args?: Record<string, unknown>): Assertion;
  toMatchJsonPath(path: string, value?: unknown): Assertion;
  /** A judge agent decides whether the response meets `criteria`; await it. */
  toSatisfy(criteria: unknown, options: SatisfyOptions): Promise<Assertion>;
  /**
   * The value must equal the test's stored snapshot (`name`, or `#1`, `#2`… in call order). A
   * mismatch throws when awaited, and fails the test when it ends either way.
   */
  toMatchSnapshot(name?: string): Promise<Assertion>;
  /** Matchers added with `expect.extend`. */
  [custom: string]: unknown;
}

export interface Expect {
  (received: unknown): Assertion;
  /** Adds matchers (`{ toBeEven(received) { return { pass, message: (not) => … } } }`) to every assertion. */
  extend(matchers: Record<string, Matcher>): void;
}

const registry = new Map<string, Matcher>(
  Object.entries({ ...coreMatchers, ...numberMatchers, ...aiMatchers, ...agentMatchers }),
);

class Expectation {
  constructor(
    readonly received: unknown,
    readonly negated: boolean,
  ) {}

  get not(): Expectation {
    return new Expectation(this.received, !this.negated);
  }
}

function install(name: string, matcher: Matcher): void {
  Object.defineProperty(Expectation.prototype, name, {
    configurable: true,
    writable: true,
    value: function matcherMethod(this: Expectation, ...args: unknown[]) {
      try {
        runMatcher(matcher, name, this.received, this.negated, args);
      } catch (error) {
        // Start the stack at the user's `expect(…)` line, so locations point at the test, not here.
        if (error instanceof AssertionError) Error.captureStackTrace?.(error, matcherMethod);
        throw error;
      }
      return this;
    },
  });
}

for (const [name, matcher] of registry) install(name, matcher);

/**
 * The stack of the user's `expect(…).toSatisfy(…)` line. The asynchronous matchers fail after an
 * `await`, where the stack holds only this library's frames, so their errors get this one instead:
 * a failure's location then points at the test, as a synchronous matcher's does.
 */
function callSiteOf(matcher: (...args: never[]) => unknown): string {
  const holder: { stack?: string } = {};
  Error.captureStackTrace?.(holder, matcher);
  return holder.stack?.slice(holder.stack.indexOf('\n')) ?? '';
}

function atCallSite(error: unknown, callSite: string): unknown {
  if (error instanceof Error && callSite) error.stack = `${error.name}: ${error.message}${callSite}`;
  return error;
}

// The one asynchronous matcher: it waits for a judge, so it is installed apart from the sync ones.
Object.defineProperty(Expectation.prototype, 'toSatisfy', {
  configurable: true,
  writable: true,
  value: async function toSatisfy(this: Expectation, criteria: unknown, options: SatisfyOptions) {
    const callSite = callSiteOf(toSatisfy);
    try {
      await satisfy(this.received, this.negated, criteria, options);
    } catch (error) {
      throw atCallSite(error, callSite);
    }
    return this;
  },
});

// Snapshots live with the run, so the check is asynchronous too. Its rejection is marked handled: a
// test that does not await it is failed by the runner when it ends, not by an unhandled rejection.
Object.defineProperty(Expectation.prototype, 'toMatchSnapshot', {
  configurable: true,
  writable: true,
  value: function toMatchSnapshot(this: Expectation, name?: string) {
    const callSite = callSiteOf(toMatchSnapshot);
    const checked = matchSnapshot(this.received, this.negated, name).then(
      () => this,
      (error: unknown) => {
        throw atCallSite(error, callSite);
      },
    );
    checked.catch(() => undefined);
    return checked;
  },
});

export const expect: Expect = Object.assign(
  (received: unknown) => new Expectation(received, false) as unknown as Assertion,
  {
    extend(matchers: Record<string, Matcher>) {
      for (const [name, matcher] of Object.entries(matchers)) {
        if (typeof matcher !== 'function') throw new TypeError(`expect.extend: matcher "${name}" must be a function`);
        if (
          name === 'not' ||
          name === 'received' ||
          name === 'negated' ||
          name === 'constructor' ||
          name === 'toSatisfy' ||
          name === 'toMatchSnapshot'
        )
          throw new TypeError(`expect.extend: "${name}" is reserved`);
        registry.set(name, matcher);
        install(name, matcher);
      }
    },
  },
);

/** The names of every matcher, built-in and extended. */
export function matcherNames(): string[] {
  return [...registry.keys(), 'toSatisfy', 'toMatchSnapshot'];
}
