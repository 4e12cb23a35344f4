import type { HttpCall, HttpReply } from '../pool/protocol.js';
import { quotedValue } from './describe.js';

/** Which requests a `t.mock.http` answers. */
export interface HttpMatcher {
  matches(request: { method: string; url: string }): boolean;
  text: string;
}

/** The request a mock function receives: the call as sent, with a JSON body also parsed into `data`. */
export interface MockedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string | null;
  data: unknown;
}

const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  204: 'No Content',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

/**
 * `"GET https://api.example.com/users/*"`, `"https://api.example.com/users"` (any method), a RegExp
 * tested against the URL, or `{method?, url}` with a string or RegExp `url`. In a string URL `*`
 * matches any run of characters; a URL without `?` matches whatever query the request has.
 */
export function httpMatcher(spec: unknown): HttpMatcher {
  if (isRegExp(spec)) return { text: String(spec), matches: ({ url }) => new RegExp(spec).test(url) };
  if (typeof spec === 'string') {
    const found = /^([A-Za-z]+)\s+(\S.*)$/.exec(spec.trim());
    return build(found ? found[1] : undefined, found ? found[2]!.trim() : spec.trim(), spec);
  }
  if (spec && typeof spec === 'object' && 'url' in spec) {
    const { method, url } = spec as { method?: unknown; url: unknown };
    if (method !== undefined && typeof method !== 'string')
      throw new TypeError(`t.mock.http: "method" must be a string such as "GET", got ${quotedValue(method)}`);
    if (isRegExp(url)) {
      const upper = method?.toUpperCase();
      return {
        text: `${upper ?? '*'} ${String(url)}`,
        matches: (request) => (!upper || request.method === upper) && new RegExp(url).test(request.url),
      };
    }
    if (typeof url === 'string' && url) return build(method, url, `${method ?? '*'} ${url}`);
  }
  throw new TypeError(
    `t.mock.http: the first argument must say which requests to answer: "GET https://api.example.com/users", a URL, a RegExp or {method, url}; got ${quotedValue(spec)}`,
  );
}

function build(method: string | undefined, url: string, text: string): HttpMatcher {
  if (!url) throw new TypeError(`t.mock.http: ${JSON.stringify(text)} has no URL`);
  const upper = method?.toUpperCase();
  const pattern = new RegExp(`^${url.split('*').map(escape).join('.*')}${url.includes('?') ? '' : '(?:\\?.*)?'}$`);
  return { text, matches: (request) => (!upper || request.method === upper) && pattern.test(request.url) };
}

/** The request as a mock function sees it. */
export function mockedRequest(call: Omit<HttpCall, 'timeoutMs'>): MockedRequest {
  const body = call.body ?? null;
  return { method: call.method, url: call.url, headers: { ...call.headers }, body, data: parsedBody(body) };
}

/** A JSON body as its value, any other body as its text; `null` without one. */
export function parsedBody(body: string | null | undefined): unknown {
  if (body === undefined || body === null || body === '') return null;
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
}

/**
 * A mock's answer as gou's response: `{status?, data?, headers?, message?}` (status 200 by default;
 * header values as strings or lists). Anything that is not such an object is the reply's `data`.
 */
export function mockedReply(answer: unknown): HttpReply {
  const shaped =
    answer !== null &&
    typeof answer === 'object' &&
    !Array.isArray(answer) &&
    Object.keys(answer).some((key) => ['status', 'data', 'headers'].includes(key));
  if (!shaped) return { status: 200, code: 200, message: 'OK', headers: {}, data: answer ?? null };
  const { status = 200, data = null, headers = {}, message } = answer as Record<string, unknown>;
  if (typeof status !== 'number' || !Number.isInteger(status))
    throw new TypeError(`t.mock.http: "status" must be a whole number such as 200, got ${quotedValue(status)}`);
  const head: Record<string, string[]> = {};
  for (const [name, value] of Object.entries((headers ?? {}) as Record<string, unknown>))
    head[name] = (Array.isArray(value) ? value : [value]).map(String);
  return {
    status,
    code: status,
    message: typeof message === 'string' ? message : (STATUS_TEXT[status] ?? ''),
    headers: head,
    data: structuredClone(data),
  };
}

function isRegExp(value: unknown): value is RegExp {
  return Object.prototype.toString.call(value) === '[object RegExp]';
}

function escape(text: string): string {
  return text.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
}
