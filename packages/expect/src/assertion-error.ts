/**
 * What every failed expectation throws. `expected` and `actual` travel with the error so reporters
 * can show them next to the message; `matcher` names the call that failed (`toBe`, `not.toHitRate`).
 */
export class AssertionError extends Error {
  override readonly name = 'AssertionError';
  /** Kept for code written against agentest-kit, which checked this flag. */
  readonly isAssertionError = true;
  readonly matcher: string;
  readonly expected?: unknown;
  readonly actual?: unknown;

  constructor(message: string, details: { matcher: string; expected?: unknown; actual?: unknown }) {
    super(message);
    this.matcher = details.matcher;
    if ('expected' in details) this.expected = details.expected;
    if ('actual' in details) this.actual = details.actual;
  }
}

export function isAssertionError(error: unknown): error is AssertionError {
  return error instanceof Error && (error as Partial<AssertionError>).isAssertionError === true;
}
