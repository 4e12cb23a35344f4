/**
 * A failed connector call. The retry loop reads `retryable` and `retryAfterMs`; the final message
 * names the connector, the status, the server's own error text and the attempts made.
 */
export class ConnectorError extends Error {
  override readonly name = 'ConnectorError';
  readonly status?: number;
  readonly retryable: boolean;
  readonly retryAfterMs?: number;
  /** Attempts made before giving up; set by the retry loop. */
  attempts = 1;

  constructor(
    message: string,
    options: { status?: number; retryable?: boolean; retryAfterMs?: number; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.status = options.status;
    this.retryable = options.retryable ?? false;
    this.retryAfterMs = options.retryAfterMs;
  }
}

/** Statuses worth another try: timeouts, conflicts, rate limits and server-side failures (529 = overloaded). */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}
