import createDebug from 'debug';
import { ConnectorError } from './connector-error.js';
import { nodeHttpFetch } from './node-http-fetch.js';

/** `DEBUG=agentest:connector` shows every request and retry, with credentials redacted. */
// Typed here rather than as debug's `Debugger`, so that the package's declarations need no `@types/debug`
// in a project that installs it and type-checks its dependencies.
export const log: { (formatter: string, ...args: unknown[]): void; readonly enabled: boolean } =
  createDebug('agentest:connector');

/** Headers that carry credentials: their values are never logged and are redacted from reports. */
export const SECRET_HEADERS = new Set(['authorization', 'x-api-key', 'api-key', 'proxy-authorization', 'cookie']);

type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** A plain copy of request headers with every credential replaced by `[redacted]`. */
export function redactHeaders(headers: ConstructorParameters<typeof Headers>[0]): Record<string, string> {
  const out: Record<string, string> = {};
  new Headers(headers ?? {}).forEach((value, name) => {
    out[name] = SECRET_HEADERS.has(name.toLowerCase()) ? '[redacted]' : value;
  });
  return out;
}

/** Removes a secret from text that may echo it (server error messages, URLs), keeping a short hint. */
export function redactSecret(text: string, secret: string | undefined): string {
  if (!secret || secret.length < 4) return text;
  return text.split(secret).join('[redacted]');
}

/** Not retryable: the same request would get the same reply. */
function replyTooLarge(maxBytes: number): ConnectorError {
  return new ConnectorError(
    `reply too large: more than ${formatBytes(maxBytes)}, so reading stopped; raise max_reply_bytes in the connector if such replies are expected`,
    { retryable: false },
  );
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024
    ? `${+(bytes / (1024 * 1024)).toFixed(1)} MB`
    : bytes >= 1024
      ? `${+(bytes / 1024).toFixed(1)} KB`
      : `${bytes} bytes`;
}

function urlOf(input: string | URL | Request): string {
  return typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
}

/**
 * The fetch handed to the SDKs (node:http underneath, see node-http-fetch.ts): logs each request
 * (redacted) and its outcome when debugging is on, and can send one URL prefix elsewhere (Yao's
 * verbatim host rule, which the Anthropic SDK cannot express).
 */
export function connectorFetch(
  id: string,
  options: { rewrite?: { from: string; to: string }; secret?: string; maxReplyBytes?: number } = {},
): Fetch {
  const { rewrite, secret, maxReplyBytes } = options;
  const fetch = nodeHttpFetch(
    undefined,
    maxReplyBytes === undefined ? undefined : { maxBytes: maxReplyBytes, tooLarge: replyTooLarge },
  );
  return async (input, init) => {
    let url = urlOf(input);
    if (rewrite && url.startsWith(rewrite.from)) url = rewrite.to + url.slice(rewrite.from.length);
    if (!log.enabled) return fetch(url, init);
    // Some gateways take the key in the URL (`?api-key=`), so the logged URL is redacted too.
    const shown = redactSecret(url, secret);
    const started = performance.now();
    log('%s → %s %s %o', id, init?.method ?? 'GET', shown, redactHeaders(init?.headers));
    try {
      const response = await fetch(url, init);
      log('%s ← %d %s (%dms)', id, response.status, shown, Math.round(performance.now() - started));
      return response;
    } catch (error) {
      log('%s ✗ %s: %s', id, shown, redactSecret((error as Error).message, secret));
      throw error;
    }
  };
}
