import { abortReason, sleep } from './abort.js';
import { ConnectorError } from './connector-error.js';

export interface RetryPolicy {
  /** Retries after the first attempt for server errors and dropped connections (0 = none). */
  retries: number;
  /**
   * Retries for 429 answers, counted apart: a rate limit is the server saying "later", not a fault,
   * so a rate-limited run should finish every case rather than lose the unlucky ones.
   */
  rateLimitRetries: number;
  /** First backoff ceiling; doubles each retry. */
  backoffMs: number;
  maxBackoffMs: number;
  /** A `Retry-After` longer than this fails at once rather than stalling the run. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  retries: 3,
  rateLimitRetries: 10,
  backoffMs: 500,
  maxBackoffMs: 30_000,
  maxRetryAfterMs: 60_000,
};

/** `Retry-After` as milliseconds: delta-seconds (`"2"`, also `"0.5"`) or an HTTP date. */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Exponential backoff with "equal jitter": half the ceiling, plus a random share of the other half. */
export function backoffDelay(retry: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxBackoffMs, policy.backoffMs * 2 ** retry);
  return ceiling / 2 + (random() * ceiling) / 2;
}

/**
 * Runs `attempt` until it succeeds, fails with a non-retryable error, or runs out of retries. The
 * wait honours the server's `Retry-After` (plus up to 10 % jitter, so a rate-limited crowd does not
 * return at the same instant), else backs off exponentially. Abort ends waits and attempts at once.
 * The final error names the connector (`label`) and the attempts made.
 */
export async function withRetries<T>(
  attempt: () => Promise<T>,
  policy: RetryPolicy,
  signal: AbortSignal,
  label: string,
  onRetry?: (error: ConnectorError, waitMs: number, retry: number) => void,
): Promise<{ value: T; retries: number }> {
  let faults = 0;
  let rateLimits = 0;
  for (let retry = 0; ; retry++) {
    try {
      return { value: await attempt(), retries: retry };
    } catch (error) {
      if (signal.aborted) throw abortReason(signal);
      if (!(error instanceof ConnectorError)) throw error;
      const attempts = retry + 1;
      if (!error.retryable)
        throw final(label, error, attempts, `${attempts} attempt${attempts > 1 ? 's' : ''} made, not retryable`);
      const rateLimited = error.status === 429;
      const exhausted = rateLimited ? rateLimits++ >= policy.rateLimitRetries : faults++ >= policy.retries;
      if (exhausted)
        throw final(
          label,
          error,
          attempts,
          `${attempts} attempts made, ${rateLimited ? 'rate-limit ' : ''}retries exhausted`,
        );
      if (error.retryAfterMs !== undefined && error.retryAfterMs > policy.maxRetryAfterMs) {
        throw final(
          label,
          error,
          attempts,
          `the server asked to retry after ${error.retryAfterMs / 1000}s, over the ${policy.maxRetryAfterMs / 1000}s limit`,
        );
      }
      const wait =
        error.retryAfterMs !== undefined ? error.retryAfterMs * (1 + Math.random() * 0.1) : backoffDelay(retry, policy);
      onRetry?.(error, wait, retry + 1);
      await sleep(wait, signal);
    }
  }
}

function final(label: string, error: ConnectorError, attempts: number, note: string): ConnectorError {
  const wrapped = new ConnectorError(`${label}: ${error.message} (${note})`, {
    status: error.status,
    retryable: error.retryable,
    cause: error.cause ?? error,
  });
  wrapped.attempts = attempts;
  return wrapped;
}
