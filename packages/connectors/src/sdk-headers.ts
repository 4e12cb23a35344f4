import { FixedRequestHeaders } from './node-http-fetch.js';

/** What the OpenAI SDK's (Stainless-generated) client passes to its own `buildHeaders`. */
interface HeaderInputs {
  options: { headers?: unknown; idempotencyKey?: unknown; timeout?: number };
  method: string;
  bodyHeaders?: Record<string, string>;
  retryCount: number;
}

interface StainlessClient {
  buildHeaders?: (inputs: HeaderInputs) => Promise<Headers | FixedRequestHeaders>;
  idempotencyHeader?: string;
  _options?: { apiKey?: unknown };
}

/**
 * Makes the SDK's client build its request headers once per kind of request instead of on every call.
 *
 * For each call the SDK merges six header sources (its own, the platform's, the key, the connector's
 * defaults, the body's content type, the call's own) into a new fetch `Headers`, validating every
 * name and value and deleting before each append: about a fifth of the SDK's CPU and allocation per
 * call. With the connector's client every one of them is the same from call to call (a fixed key,
 * the SDK's retries off so its retry count is always 0, no idempotency key, no per-call headers), so
 * a call that matches an earlier one in method, content type and timeout gets that call's `Headers`,
 * which the SDK and the connector's fetch only read (see `FixedRequestHeaders`: the fetch's header list
 * is made once, and the SDK's per-call copy of them for its log line is empty).
 * Anything else (per-call headers, an idempotency key, a key that is a function) is built as the SDK
 * builds it. `buildHeaders` is the SDK's own method, private in its typings, of the exact version the
 * connectors pin (the tests check that the headers sent are the SDK's); a client without it is left
 * as it is.
 */
export function reuseRequestHeaders(client: object): void {
  const sdk = client as StainlessClient;
  const build = sdk.buildHeaders;
  if (typeof build !== 'function' || sdk.idempotencyHeader || typeof sdk._options?.apiKey === 'function') return;
  const built = new Map<string, Promise<FixedRequestHeaders>>();
  sdk.buildHeaders = function (inputs: HeaderInputs): Promise<Headers | FixedRequestHeaders> {
    const { options, method, bodyHeaders, retryCount } = inputs;
    if (options.headers !== undefined || options.idempotencyKey !== undefined) return build.call(this, inputs);
    const key = `${method} ${retryCount} ${options.timeout ?? ''} ${bodyHeaders ? JSON.stringify(bodyHeaders) : ''}`;
    let headers = built.get(key);
    if (!headers) {
      headers = build.call(this, inputs).then((value) => new FixedRequestHeaders(value as Headers));
      built.set(key, headers);
      // A failed build is not kept: the next call tries again.
      headers.catch(() => built.delete(key));
    }
    return headers;
  };
}
