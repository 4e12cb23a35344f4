import { request as httpRequest, Agent as HttpAgent, type IncomingMessage } from 'node:http';
import { request as httpsRequest, Agent as HttpsAgent } from 'node:https';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Readable } from 'node:stream';
import { urlToHttpOptions } from 'node:url';
import { rawHeader, ReplyHeaders } from './reply-headers.js';

type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

const agents = {
  'http:': new HttpAgent({ keepAlive: true }),
  'https:': new HttpsAgent({ keepAlive: true }),
};

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 20;

/**
 * The `fetch` the connectors hand to the official SDKs: node:http(s) with keep-alive agents.
 *
 * Node 20's global fetch moves every request and response body through WHATWG streams, which costs
 * more main-thread CPU per call than the HTTP exchange itself; at `--parallel 64` that CPU queues on
 * the event loop and shows up as latency on every case. This fetch does the same exchange with Node's
 * own streams. It covers what the SDKs send (a method, headers, a string or byte body, a signal) and
 * what they read (status, headers, `json()`, `text()`, an async-iterable `body` for SSE); anything
 * else (streamed or form bodies, `Request` objects) goes to the global fetch unchanged.
 */
export function nodeHttpFetch(fallback: Fetch = fetch, limit?: ReplyLimit): Fetch {
  return (input, init) => {
    const body = init?.body;
    const callSignal = (init as CallInit | undefined)?.[CALL_SIGNAL];
    if (typeof input !== 'string' && !(input instanceof URL)) return fallback(input, withCallSignal(init, callSignal));
    if (body != null && typeof body !== 'string' && !(body instanceof Uint8Array))
      return fallback(input, withCallSignal(init, callSignal));
    const given = headerList(init?.headers);
    const target = parsed(input);
    // A known length spares chunked encoding, so headers and body leave in one write, as fetch sends them.
    const length =
      body != null && !given.hasLength
        ? String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength)
        : undefined;
    const signals: Signals = { signal: init?.signal ?? undefined, callSignal };
    const list = sentList(given, target.url.host, length);
    return send(target, init?.method ?? 'GET', list, body ?? undefined, signals, 0, limit);
  };
}

/**
 * Where a connector puts its call's own signal in the request options it gives the SDK
 * (`fetchOptions`, which the SDK hands on to this fetch as they are). The SDK is given no signal of
 * the caller's: it adds an abort listener to the one it gets and never removes it, so a run making
 * many calls on one signal (a simulated conversation, judge samples) would pile them up, and a
 * signal of its own per call to spare the caller's (a controller, two listeners) costs each call
 * more than this. The SDK's own signal, which its timeout aborts, still comes as `signal`; the call
 * ends when either is aborted, and this fetch removes its listeners when it ends.
 */
export const CALL_SIGNAL = Symbol('agentest.callSignal');

type CallInit = RequestInit & { [CALL_SIGNAL]?: AbortSignal };

/** The SDK request option (`fetchOptions`) that carries the call's signal to this fetch. */
export function callFetchOptions(signal: AbortSignal): CallFetchOptions {
  return { [CALL_SIGNAL]: signal };
}

export interface CallFetchOptions {
  [CALL_SIGNAL]: AbortSignal;
}

/** The options for another fetch, which knows only `signal`: aborted when either signal is. */
function withCallSignal(init: RequestInit | undefined, callSignal: AbortSignal | undefined): RequestInit | undefined {
  if (!callSignal) return init;
  return { ...init, signal: init?.signal ? AbortSignal.any([init.signal, callSignal]) : callSignal };
}

/** The signals a request ends on: the SDK's (its timeout) and the call's own (see `CALL_SIGNAL`). */
interface Signals {
  signal: AbortSignal | undefined;
  callSignal: AbortSignal | undefined;
}

function abortedOf({ signal, callSignal }: Signals): AbortSignal | undefined {
  return signal?.aborted ? signal : callSignal?.aborted ? callSignal : undefined;
}

/** Listeners that remove themselves, so no `{ once }` for EventTarget to read on every call. */
function listen({ signal, callSignal }: Signals, onAbort: () => void): void {
  signal?.addEventListener('abort', onAbort);
  callSignal?.addEventListener('abort', onAbort);
}

function unlisten({ signal, callSignal }: Signals, onAbort: () => void): void {
  signal?.removeEventListener('abort', onAbort);
  callSignal?.removeEventListener('abort', onAbort);
}

/**
 * Request headers as Node's client takes them fastest: a flat `[name, value, …]` list goes straight
 * into the request's head, where an object has each header set (validated, lower-cased, stored) first.
 */
interface HeaderList {
  list: readonly string[];
  hasLength: boolean;
  hasHost: boolean;
}

/**
 * The list a request sends: the given one, with the Host header Node adds to an object of headers
 * but not to a list (`url.host`, what it would send), and the body's length; one copy at most.
 */
function sentList(given: HeaderList, host: string, length: string | undefined): readonly string[] {
  if (given.hasHost && length === undefined) return given.list;
  const list = given.hasHost ? [...given.list] : ['host', host, ...given.list];
  if (length !== undefined) list.push('content-length', length);
  return list;
}

/**
 * Request headers its owner sends with many requests and never changes (the SDK's request headers,
 * built once per kind of request, see sdk-headers.ts): their list for Node's client is made once,
 * not per request. Read like the `Headers` they wrap (a fetch other than this one takes them as the
 * `[name, value]` pairs they iterate), but they show no header as an own property: the SDK copies
 * the headers of every request into a log line, also when its logging is off, and for this object
 * that copy is empty.
 */
export class FixedRequestHeaders {
  readonly #headers: Headers;
  readonly #list: HeaderList;

  constructor(headers: Headers) {
    this.#headers = headers;
    this.#list = listOf(headers);
  }

  /** The list Node's client sends. */
  get sentList(): HeaderList {
    return this.#list;
  }

  get(name: string): string | null {
    return this.#headers.get(name);
  }

  has(name: string): boolean {
    return this.#headers.has(name);
  }

  forEach(callback: (value: string, name: string) => void): void {
    this.#headers.forEach((value, name) => callback(value, name));
  }

  entries(): IterableIterator<[string, string]> {
    return this.#headers.entries();
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.#headers.entries();
  }
}

function headerList(headers: RequestInit['headers'] | FixedRequestHeaders): HeaderList {
  if (!headers) return { list: [], hasLength: false, hasHost: false };
  if (headers instanceof FixedRequestHeaders) return headers.sentList;
  // The SDKs pass a Headers already; copying it into another one first would cost as much again.
  if (headers instanceof Headers) return listOf(headers);
  return listOf(new Headers(headers));
}

function listOf(headers: Headers): HeaderList {
  const list: string[] = [];
  headers.forEach((value, name) => list.push(name, value));
  return { list, hasLength: named(list, 'content-length'), hasHost: named(list, 'host') };
}

/** A URL and Node's request options for it. */
interface Target {
  url: URL;
  options: ReturnType<typeof urlToHttpOptions>;
}

const targets = new Map<string, Target>();

/**
 * The target of a URL, parsed once: an SDK sends every call to the same one or two URLs, and parsing
 * one (twice, as `http.request` takes a URL apart again) is a share of each call's time worth keeping.
 */
function parsed(input: string | URL): Target {
  const href = typeof input === 'string' ? input : input.href;
  let target = targets.get(href);
  if (!target) {
    const url = new URL(href);
    // Kept small: a client that puts something of its own in every URL gains nothing from the map.
    if (targets.size >= 32) targets.clear();
    targets.set(href, (target = { url, options: urlToHttpOptions(url) }));
  }
  return target;
}

function send(
  { url, options }: Target,
  method: string,
  headers: readonly string[],
  body: string | Uint8Array | undefined,
  signals: Signals,
  redirects: number,
  limit?: ReplyLimit,
): Promise<Response> {
  return new Promise((resolve, reject) => {
    const early = abortedOf(signals);
    if (early) return reject(abortError(early));
    const requestFn = url.protocol === 'https:' ? httpsRequest : url.protocol === 'http:' ? httpRequest : undefined;
    if (!requestFn) return reject(new TypeError(`fetch failed: unsupported protocol ${url.protocol}`));
    // With a list, Node adds no Host header of its own (a redirect to another origin drops the old one).
    const sent = named(headers, 'host') ? headers : ['host', url.host, ...headers];
    const req = requestFn({ ...options, method, headers: sent, agent: agents[url.protocol as 'http:' | 'https:'] });
    // One listener per signal for the whole exchange: before the headers an abort ends the request,
    // after them it ends the body, and its readers see the abort error.
    let res: IncomingMessage | undefined;
    const onAbort = (): void => {
      unlisten(signals, onAbort);
      const error = abortError(abortedOf(signals)!);
      if (res) return void res.destroy(error);
      req.destroy(error);
      reject(error);
    };
    listen(signals, onAbort);
    req.once('error', (error) => {
      unlisten(signals, onAbort);
      reject(new TypeError('fetch failed', { cause: error }));
    });
    req.once('response', (reply) => {
      const status = reply.statusCode ?? 0;
      const location = REDIRECTS.has(status) ? rawHeader(reply.rawHeaders, 'location') : null;
      if (location && redirects < MAX_REDIRECTS) {
        unlisten(signals, onAbort);
        reply.resume();
        const keepBody = status === 307 || status === 308;
        const next = new URL(location, url);
        const dropped = new Set(keepBody ? [] : ['content-type', 'content-length']);
        if (next.origin !== url.origin) dropped.add('authorization').add('host');
        resolve(
          send(
            { url: next, options: urlToHttpOptions(next) },
            keepBody || method === 'HEAD' ? method : 'GET',
            without(headers, dropped),
            keepBody ? body : undefined,
            signals,
            redirects + 1,
            limit,
          ),
        );
        return;
      }
      res = reply;
      reply.once('close', () => unlisten(signals, onAbort));
      resolve(new NodeHttpResponse(reply, decoded(reply), url.href, redirects > 0, limit) as unknown as Response);
    });
    req.end(body);
  });
}

/** UTF-8 as fetch decodes it: a byte-order mark is dropped, invalid sequences become U+FFFD. */
function utf8(bytes: Buffer): string {
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  return bytes.toString('utf8', bom ? 3 : 0);
}

/** What an async iterator over a stream throws when it closes before its end. */
function prematureClose(): Error {
  return Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' });
}

function named(headers: readonly string[], name: string): boolean {
  for (let i = 0; i < headers.length; i += 2) if (headers[i] === name) return true;
  return false;
}

/** The list without the headers named in `names` (lower-case, as the list has them). */
function without(headers: readonly string[], names: ReadonlySet<string>): string[] {
  const kept: string[] = [];
  for (let i = 0; i < headers.length; i += 2) if (!names.has(headers[i]!)) kept.push(headers[i]!, headers[i + 1]!);
  return kept;
}

function decoded(res: IncomingMessage): Readable {
  const encoding = (rawHeader(res.rawHeaders, 'content-encoding') ?? '').trim().toLowerCase();
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? createGunzip()
      : encoding === 'deflate'
        ? createInflate()
        : encoding === 'br'
          ? createBrotliDecompress()
          : undefined;
  if (!decoder) return res;
  res.once('error', (error) => decoder.destroy(error));
  return res.pipe(decoder);
}

function abortError(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new DOMException('This operation was aborted', 'AbortError');
}

/**
 * A cap on the (decoded) reply body: past `maxBytes`, reading stops, the connection is dropped and
 * the reader gets `tooLarge()`'s error. A declared `Content-Length` over the cap fails at once.
 */
export interface ReplyLimit {
  maxBytes: number;
  tooLarge: (maxBytes: number) => Error;
}

/** The slice of `Response` the SDKs read, over a Node stream. */
class NodeHttpResponse {
  readonly status: number;
  readonly statusText: string;
  readonly ok: boolean;
  readonly headers: ReplyHeaders;
  readonly type = 'basic';
  private used = false;

  constructor(
    private readonly res: IncomingMessage,
    private readonly stream: Readable,
    readonly url: string,
    readonly redirected: boolean,
    private readonly limit?: ReplyLimit,
  ) {
    this.status = res.statusCode ?? 0;
    this.statusText = res.statusMessage ?? '';
    this.ok = this.status >= 200 && this.status < 300;
    this.headers = new ReplyHeaders(res.rawHeaders);
  }

  get bodyUsed(): boolean {
    return this.used || this.stream.readableDidRead;
  }

  /**
   * An async iterable of byte chunks, which is what the SDKs' SSE readers accept. Reading it is what uses the body, not
   * asking for it: the SDKs log it first.
   */
  get body(): AsyncIterable<Uint8Array> {
    return this.limit ? this.capped(this.limit) : this.stream;
  }

  // Each a promise of `bytes()` and no async function of its own: every call reads a body, and an
  // async function per step would add its own promise and turn of the microtask queue.
  arrayBuffer(): Promise<ArrayBuffer> {
    return this.bytes().then(
      (bytes) => bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer,
    );
  }

  text(): Promise<string> {
    return this.bytes().then(utf8);
  }

  json(): Promise<unknown> {
    return this.bytes().then((bytes) => JSON.parse(utf8(bytes)));
  }

  /**
   * The whole body, read with the stream's own events: an async iterator over it costs more than the
   * rest of the exchange for a small JSON reply, and each call reads one.
   */
  private bytes(): Promise<Buffer> {
    if (this.bodyUsed) return Promise.reject(new TypeError('Body is unusable: Body has already been read'));
    this.used = true;
    const limit = this.limit;
    if (limit && this.declaredLength() > limit.maxBytes) return Promise.reject(this.refuse(limit));
    const stream = this.stream;
    if (stream.destroyed) return Promise.reject(stream.errored ?? prematureClose());
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      let total = 0;
      stream.on('data', (chunk: Buffer) => {
        total += chunk.byteLength;
        // Counted here rather than through `capped()`: past the cap, reading stops at once.
        if (limit && total > limit.maxBytes) reject(this.refuse(limit));
        else chunks.push(chunk);
      });
      let ended = false;
      stream.once('end', () => {
        ended = true;
        resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total));
      });
      stream.once('error', reject);
      // Before 'end', the body was cut off without an error of its own. After it there is nothing to
      // settle, and no error is made: its stack trace would cost more than the rest of the reading.
      stream.once('close', () => {
        if (!ended) reject(stream.errored ?? prematureClose());
      });
    });
  }

  /** The body, counted as it is read: a reply past the cap is refused before it is all in memory. */
  private async *capped(limit: ReplyLimit): AsyncGenerator<Uint8Array> {
    if (this.declaredLength() > limit.maxBytes) throw this.refuse(limit);
    let total = 0;
    for await (const chunk of this.stream) {
      total += (chunk as Uint8Array).byteLength;
      if (total > limit.maxBytes) throw this.refuse(limit);
      yield chunk as Uint8Array;
    }
  }

  private declaredLength(): number {
    return Number(rawHeader(this.res.rawHeaders, 'content-length') ?? 0);
  }

  private refuse(limit: ReplyLimit): Error {
    // The socket goes too: the rest of the reply is not worth receiving.
    this.stream.destroy();
    this.res.destroy();
    return limit.tooLarge(limit.maxBytes);
  }
}
