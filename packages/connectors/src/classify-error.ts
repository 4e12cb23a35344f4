import { ConnectorError, isRetryableStatus } from './connector-error.js';
import { parseRetryAfter } from './retry.js';

/** The error classes both official SDKs export (they share one generator), used for `instanceof`. */
export interface SdkErrorClasses {
  APIError: abstract new (...args: never[]) => Error & { status?: number; error?: unknown; headers?: unknown };
  APIConnectionError: abstract new (...args: never[]) => Error;
  APIConnectionTimeoutError: abstract new (...args: never[]) => Error;
}

/**
 * Turns whatever one attempt threw into a ConnectorError that says what happened and whether another
 * attempt may help: HTTP errors keep their status, the server's text and `Retry-After`; refused and
 * reset connections, timeouts and cut streams are retryable; a malformed body is not.
 */
export function toConnectorError(
  error: unknown,
  sdk: SdkErrorClasses,
  url: string,
  timeoutMs: number | undefined,
): ConnectorError {
  if (error instanceof ConnectorError) return error;
  // Raised by our own fetch (a reply past max_reply_bytes); the SDK may have wrapped it.
  const own = connectorCause(error);
  if (own) return own;
  if (error instanceof sdk.APIConnectionTimeoutError) {
    return new ConnectorError(`no answer from ${url} within ${timeoutMs ?? 600_000}ms`, {
      retryable: true,
      cause: error,
    });
  }
  if (error instanceof sdk.APIConnectionError) {
    return new ConnectorError(`cannot reach ${url}: ${rootCause(error as Error)}`, { retryable: true, cause: error });
  }
  if (error instanceof sdk.APIError && typeof error.status === 'number') {
    const headers = error.headers as { get?(name: string): string | null } | undefined;
    const retryAfterMs = retryAfterOf(headers);
    const text = serverText(error.error) ?? error.message;
    return new ConnectorError(`HTTP ${error.status} from ${url}: ${text}`, {
      status: error.status,
      retryable: isRetryableStatus(error.status),
      retryAfterMs,
      cause: error,
    });
  }
  if (error instanceof SyntaxError) {
    return new ConnectorError(`the server at ${url} sent malformed JSON: ${error.message}`, {
      retryable: false,
      cause: error,
    });
  }
  if (isCutConnection(error)) {
    return new ConnectorError(`the connection to ${url} closed before the reply was complete (${rootCause(error)})`, {
      retryable: true,
      cause: error,
    });
  }
  return new ConnectorError(error instanceof Error ? error.message : String(error), { cause: error });
}

function connectorCause(error: unknown): ConnectorError | undefined {
  let current = error instanceof Error ? error.cause : undefined;
  for (let depth = 0; current instanceof Error && depth < 5; depth++, current = current.cause) {
    if (current instanceof ConnectorError) return current;
  }
  return undefined;
}

/** OpenAI also sends `retry-after-ms`; it is more precise when present. */
function retryAfterOf(headers: { get?(name: string): string | null } | undefined): number | undefined {
  if (typeof headers?.get !== 'function') return undefined;
  const ms = Number(headers.get('retry-after-ms'));
  if (headers.get('retry-after-ms') && Number.isFinite(ms) && ms >= 0) return ms;
  return parseRetryAfter(headers.get('retry-after'));
}

/** The server's own error text from an OpenAI (`{message}`) or Anthropic (`{error: {message}}`) error body. */
function serverText(body: unknown): string | undefined {
  if (!body || typeof body !== 'object') return typeof body === 'string' && body ? body : undefined;
  const b = body as { message?: unknown; error?: { message?: unknown; type?: unknown } };
  if (typeof b.message === 'string') return b.message;
  if (typeof b.error?.message === 'string') return b.error.message;
  const json = JSON.stringify(body);
  return json.length > 500 ? `${json.slice(0, 500)}…` : json;
}

/** undici reports a dropped connection as `TypeError: terminated` with a socket error as its cause. */
function isCutConnection(error: unknown): error is Error {
  if (!(error instanceof Error)) return false;
  if (error.message === 'terminated') return true;
  const code = (error as { code?: unknown }).code ?? (error.cause as { code?: unknown } | undefined)?.code;
  return code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE';
}

/** The innermost cause's code and message: `ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9`. */
function rootCause(error: Error): string {
  let current: unknown = error;
  let text = error.message;
  for (let depth = 0; current instanceof Error && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    text =
      typeof code === 'string' && !current.message.includes(code) ? `${code}: ${current.message}` : current.message;
    current = current.cause;
  }
  return text;
}
