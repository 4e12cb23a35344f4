import type { HttpCall, HttpReply } from '../pool/protocol.js';

/** Sends one request through the task's channel and waits for the reply (the caller is blocked meanwhile). */
export type HttpSender = (call: Omit<HttpCall, 'timeoutMs'>) => HttpReply;

type Payload = { kind: 'payload'; value: unknown } | { kind: 'none' };

/**
 * Yao's `http` global (gou `runtime/v8/objects/http`), synchronous as in Yao:
 *
 * - `Get(url, query?, headers?)`
 * - `Post(url, payload?, files?, query?, headers?)`
 * - `Put` / `Patch` / `Delete(url, payload?, query?, headers?)`
 * - `Send(method, url, payload?, query?, headers?)`
 *
 * Every call returns `{status, code, message, headers, data}`; a request that got no reply has
 * status 0. The request itself runs on the main thread (see `pool/http-bridge.ts`). Uploads
 * (`files`, multipart) and `Stream` need Yao's file system and callbacks across threads, so they
 * fail with a message saying so.
 */
export function yaoHttp(send: HttpSender): Readonly<Record<string, (...args: any[]) => HttpReply>> {
  const request = (
    method: string,
    url: unknown,
    payload: Payload,
    query: unknown,
    headers: unknown,
    defaultType?: string,
  ): HttpReply => {
    if (typeof url !== 'string' || !url) return badArgs(`http.${title(method)}: the URL must be a non-empty string`);
    const head = headerRecord(headers);
    if (defaultType && !hasHeader(head, 'content-type')) head['Content-Type'] = defaultType;
    const contentType = headerValue(head, 'content-type') ?? '';
    if (/multipart\/form-data/i.test(contentType))
      throw new Error(
        "http: multipart/form-data uploads are not available when agentest runs a script (they read files from the Yao app's file system)",
      );
    const body =
      payload.kind === 'payload' && payload.value !== undefined && payload.value !== null
        ? encodeBody(payload.value, contentType)
        : undefined;
    return send({ method, url: withQuery(url, query), headers: head, ...(body !== undefined ? { body } : {}) });
  };
  const simple =
    (method: string, defaultType?: string) => (url: unknown, payload?: unknown, query?: unknown, headers?: unknown) =>
      request(method, url, payloadOf(payload), query, headers, defaultType);
  return Object.freeze({
    Get: (url: unknown, query?: unknown, headers?: unknown) => request('GET', url, { kind: 'none' }, query, headers),
    Post: (url: unknown, payload?: unknown, files?: unknown, query?: unknown, headers?: unknown) => {
      if (files && typeof files === 'object' && Object.keys(files).length)
        throw new Error(
          "http.Post: file uploads are not available when agentest runs a script (they read files from the Yao app's file system)",
        );
      return request('POST', url, payloadOf(payload), query, headers, 'application/json; charset=utf-8');
    },
    Put: simple('PUT', 'application/json; charset=utf-8'),
    Patch: simple('PATCH', 'application/json; charset=utf-8'),
    Delete: simple('DELETE', 'application/json; charset=utf-8'),
    Send: (method: unknown, url: unknown, payload?: unknown, query?: unknown, headers?: unknown) => {
      if (typeof method !== 'string' || !method) return badArgs('http.Send: the method must be a string such as "GET"');
      const upper = method.toUpperCase();
      return request(
        upper,
        url,
        payloadOf(payload),
        query,
        headers,
        upper === 'GET' || upper === 'HEAD' ? undefined : 'text/plain',
      );
    },
    Stream: () => {
      throw new Error(
        'http.Stream is not available when agentest runs a script: its callback would have to run while the reply streams in on another thread. Use http.Get/Post/Send, which return the whole reply.',
      );
    },
  });
}

function payloadOf(payload: unknown): Payload {
  return payload === undefined ? { kind: 'none' } : { kind: 'payload', value: payload };
}

/** gou answers bad arguments with a 400 response rather than an exception. */
function badArgs(message: string): HttpReply {
  return { status: 400, code: 400, message, headers: {}, data: null };
}

function title(method: string): string {
  return method.charAt(0) + method.slice(1).toLowerCase();
}

/** Strings go as they are; form content types get `a=1&b=2`; everything else is JSON. */
function encodeBody(value: unknown, contentType: string): string {
  if (typeof value === 'string') return value;
  if (/application\/x-www-form-urlencoded/i.test(contentType)) return queryString(value).toString();
  return JSON.stringify(value) ?? '';
}

/**
 * Query params in gou's forms: `{k: v}`, `["k=v", …]`, `[{k: v}, …]` or `"k=v&k2=v2"`; merged into the URL's own query.
 */
function withQuery(url: string, query: unknown): string {
  const params = queryString(query);
  if ([...params.keys()].length === 0) return url;
  const [base, existing] = url.split('?', 2) as [string, string | undefined];
  const merged = new URLSearchParams(existing ?? '');
  for (const [key, value] of params) merged.append(key, value);
  return `${base}?${merged.toString()}`;
}

function queryString(query: unknown): URLSearchParams {
  const params = new URLSearchParams();
  const add = (key: string, value: unknown) => {
    for (const item of Array.isArray(value) ? value : [value])
      params.append(
        key,
        item === null || item === undefined ? '' : typeof item === 'object' ? JSON.stringify(item) : String(item),
      );
  };
  if (typeof query === 'string') return new URLSearchParams(query.startsWith('?') ? query.slice(1) : query);
  if (Array.isArray(query)) {
    for (const entry of query) {
      if (typeof entry === 'string') for (const [key, value] of new URLSearchParams(entry)) params.append(key, value);
      else if (entry && typeof entry === 'object') for (const [key, value] of Object.entries(entry)) add(key, value);
    }
    return params;
  }
  if (query && typeof query === 'object') for (const [key, value] of Object.entries(query)) add(key, value);
  return params;
}

/** Headers as `{K: V}`, `{K: [V1, V2]}` or `[{K: V}, …]`; repeated names are joined with `, `. */
function headerRecord(headers: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  const add = (key: string, value: unknown) => {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item === undefined || item === null) continue;
      out[key] = out[key] === undefined ? String(item) : `${out[key]}, ${String(item)}`;
    }
  };
  const entries = Array.isArray(headers)
    ? headers.filter((h) => h && typeof h === 'object')
    : headers && typeof headers === 'object'
      ? [headers]
      : [];
  for (const entry of entries)
    for (const [key, value] of Object.entries(entry as Record<string, unknown>)) add(key, value);
  return out;
}

function hasHeader(headers: Record<string, string>, name: string): boolean {
  return headerValue(headers, name) !== undefined;
}

function headerValue(headers: Record<string, string>, name: string): string | undefined {
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  return key === undefined ? undefined : headers[key];
}
