import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { getEventListeners } from 'node:events';
import { callFetchOptions, FixedRequestHeaders, nodeHttpFetch } from '../src/node-http-fetch.js';

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

/** A plain HTTP server whose routes are set per test: what the fetch must cope with, beyond an LLM API. */
const routes = new Map<string, Handler>();
const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const handler = routes.get(req.url ?? '');
    if (handler) handler(req, res, Buffer.concat(chunks).toString('utf8'));
    else res.writeHead(404).end('no route');
  });
});
let base = '';

before(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const fetch = nodeHttpFetch(() => Promise.reject(new Error('fallback used')));

describe('nodeHttpFetch', () => {
  it('sends method, headers and body; reads status, headers and JSON', async () => {
    routes.set('/echo', (req, res, body) => {
      res.writeHead(201, 'Made', { 'content-type': 'application/json', 'x-request-id': 'r1' });
      const { authorization: auth, 'content-length': length, 'transfer-encoding': encoding } = req.headers;
      res.end(
        JSON.stringify({ method: req.method, auth, length, chunked: encoding === 'chunked', body: JSON.parse(body) }),
      );
    });
    const response = await fetch(`${base}/echo`, {
      method: 'POST',
      headers: new Headers({ Authorization: 'Bearer k' }),
      body: JSON.stringify({ a: 1 }),
    });
    assert.equal(response.status, 201);
    assert.equal(response.statusText, 'Made');
    assert.equal(response.ok, true);
    assert.equal(response.headers.get('x-request-id'), 'r1');
    assert.deepEqual(await response.json(), {
      method: 'POST',
      auth: 'Bearer k',
      length: '7',
      chunked: false,
      body: { a: 1 },
    });
    assert.equal(response.bodyUsed, true);
    await assert.rejects(response.text(), /already been read/);
  });

  it('error statuses are responses, not rejections', async () => {
    routes.set('/limited', (_req, res) => res.writeHead(429, { 'retry-after': '3' }).end('slow down'));
    const response = await fetch(`${base}/limited`, { method: 'POST', body: '{}' });
    assert.equal(response.ok, false);
    assert.equal(response.status, 429);
    assert.equal(response.headers.get('retry-after'), '3');
    assert.equal(await response.text(), 'slow down');
  });

  it('decodes gzip bodies and UTF-8 split across chunks', async () => {
    routes.set('/gzip', (_req, res) =>
      res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync('{"text":"héllo 你好"}')),
    );
    assert.deepEqual(await (await fetch(`${base}/gzip`)).json(), { text: 'héllo 你好' });
    routes.set('/split', (_req, res) => {
      const bytes = Buffer.from('你好');
      res.write(bytes.subarray(0, 2));
      res.end(bytes.subarray(2));
    });
    assert.equal(await (await fetch(`${base}/split`)).text(), '你好');
  });

  it('text() decodes as fetch does: a byte-order mark is dropped, invalid bytes become U+FFFD', async () => {
    routes.set('/bom', (_req, res) => res.end(Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d])));
    assert.deepEqual(await (await fetch(`${base}/bom`)).json(), {});
    routes.set('/invalid', (_req, res) => res.end(Buffer.from([0x61, 0xff, 0x62])));
    assert.equal(await (await fetch(`${base}/invalid`)).text(), 'a\ufffdb');
  });

  it('a body closed before its end without an error of its own still fails the reader', async () => {
    routes.set('/closed', (_req, res) => res.writeHead(200).write('part'));
    const response = await fetch(`${base}/closed`);
    const reading = response.text();
    // What the stream does when its socket goes without an error: close, never 'end'.
    (response as unknown as { stream: { destroy(): void } }).stream.destroy();
    await assert.rejects(reading, { code: 'ERR_STREAM_PREMATURE_CLOSE' });
  });

  it('the body is an async iterable of bytes, for SSE readers; asking for it does not use it', async () => {
    routes.set('/sse', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: one\n\n');
      res.end('data: two\n\n');
    });
    const response = await fetch(`${base}/sse`);
    const body = response.body as unknown as AsyncIterable<Uint8Array>;
    assert.equal(response.bodyUsed, false);
    let text = '';
    for await (const chunk of body) text += Buffer.from(chunk).toString('utf8');
    assert.equal(text, 'data: one\n\ndata: two\n\n');
    assert.equal(response.bodyUsed, true);
  });

  it('follows redirects: 307 keeps method and body, 302 turns POST into GET; credentials stay on the origin', async () => {
    routes.set('/moved', (_req, res) => res.writeHead(307, { location: '/echo' }).end());
    routes.set('/found', (_req, res) => res.writeHead(302, { location: `${base}/method` }).end());
    routes.set('/method', (req, res, body) => res.end(JSON.stringify({ method: req.method, body })));
    const kept = await fetch(`${base}/moved`, { method: 'POST', body: '{"b":2}' });
    assert.deepEqual(await kept.json(), { method: 'POST', length: '7', chunked: false, body: { b: 2 } });
    assert.equal(kept.redirected, true);
    assert.equal(kept.url, `${base}/echo`);
    assert.deepEqual(await (await fetch(`${base}/found`, { method: 'POST', body: 'x' })).json(), {
      method: 'GET',
      body: '',
    });
  });

  it("sends one Host header, the caller's or the URL's; a fixed Headers goes out the same with each body", async () => {
    routes.set('/raw', (req, res, body) => res.end(JSON.stringify({ raw: req.rawHeaders, body })));
    const sent = async (init: RequestInit) => {
      const { raw, body } = (await (await fetch(`${base}/raw`, init)).json()) as { raw: string[]; body: string };
      const pairs = Array.from({ length: raw.length / 2 }, (_, i) => [raw[2 * i]!.toLowerCase(), raw[2 * i + 1]!]);
      return { pairs, body };
    };
    const hosts = (pairs: string[][]) => pairs.filter(([name]) => name === 'host').map(([, value]) => value);
    assert.deepEqual(hosts((await sent({ headers: { 'x-a': '1' } })).pairs), [new URL(base).host]);
    assert.deepEqual(hosts((await sent({ headers: { Host: 'example.test' } })).pairs), ['example.test']);
    const fixed = new FixedRequestHeaders(new Headers({ 'content-type': 'application/json', 'x-team': 'qa' }));
    // Read as the Headers they wrap, taken as such by another fetch, yet nothing to copy for a log line.
    assert.equal(fixed.get('X-Team'), 'qa');
    assert.deepEqual([...new Headers(fixed as unknown as Headers)], [...fixed]);
    assert.deepEqual(Object.entries(fixed), []);
    for (const body of ['{"a":1}', '{"longer":"body"}']) {
      const request = await sent({ method: 'POST', headers: fixed as unknown as Headers, body });
      assert.equal(request.body, body);
      assert.deepEqual(
        request.pairs.filter(([name]) => name !== 'connection'),
        [
          ['host', new URL(base).host],
          ['content-type', 'application/json'],
          ['x-team', 'qa'],
          ['content-length', String(body.length)],
        ],
      );
    }
    routes.set('/see-other', (_req, res) => res.writeHead(303, { location: '/raw' }).end());
    const { raw } = (await (
      await fetch(`${base}/see-other`, { method: 'POST', headers: fixed as unknown as Headers, body: '{}' })
    ).json()) as {
      raw: string[];
    };
    assert.ok(!raw.some((name) => /^content-(type|length)$/i.test(name)), 'a 303 drops the body and its headers');
    assert.ok(raw.includes('x-team'));
  });

  it('an abort before the headers rejects with the signal reason and ends the request', async () => {
    let arrived!: () => void;
    const requested = new Promise<void>((resolve) => (arrived = resolve));
    routes.set('/hang', () => arrived());
    const controller = new AbortController();
    const pending = fetch(`${base}/hang`, { signal: controller.signal });
    await requested;
    controller.abort(new DOMException('stop', 'AbortError'));
    await assert.rejects(pending, { name: 'AbortError', message: 'stop' });
  });

  it('an abort after the headers ends the body for its reader', async () => {
    routes.set('/trickle', (_req, res) => res.writeHead(200).write('part'));
    const controller = new AbortController();
    const response = await fetch(`${base}/trickle`, { signal: controller.signal });
    const reading = response.text();
    controller.abort();
    await assert.rejects(reading, { name: 'AbortError' });
  });

  it("the call's own signal (in the SDK's fetchOptions) ends the request before and after the headers", async () => {
    let arrived!: () => void;
    const requested = new Promise<void>((resolve) => (arrived = resolve));
    routes.set('/hang-call', () => arrived());
    const sdk = new AbortController();
    const call = new AbortController();
    const pending = fetch(`${base}/hang-call`, { signal: sdk.signal, ...callFetchOptions(call.signal) });
    await requested;
    call.abort(new Error('run interrupted'));
    await assert.rejects(pending, { message: 'run interrupted' });
    assert.equal(getEventListeners(sdk.signal, 'abort').length, 0);

    routes.set('/trickle-call', (_req, res) => res.writeHead(200).write('part'));
    const later = new AbortController();
    const response = await fetch(`${base}/trickle-call`, { signal: sdk.signal, ...callFetchOptions(later.signal) });
    const reading = response.text();
    later.abort(new Error('deadline'));
    await assert.rejects(reading, { message: 'deadline' });
    await assert.rejects(fetch(`${base}/count`, callFetchOptions(AbortSignal.abort())), { name: 'AbortError' });
  });

  it("the SDK's signal (its timeout) still ends a call that has a signal of its own", async () => {
    routes.set('/hang-sdk', () => undefined);
    const sdk = new AbortController();
    const call = new AbortController();
    const pending = fetch(`${base}/hang-sdk`, { signal: sdk.signal, ...callFetchOptions(call.signal) });
    setImmediate(() => sdk.abort(new DOMException('timed out', 'AbortError')));
    await assert.rejects(pending, { name: 'AbortError', message: 'timed out' });
    assert.equal(getEventListeners(call.signal, 'abort').length, 0, 'no listener is left on the call signal');
  });

  it('a finished call leaves no listener on either signal', async () => {
    routes.set('/plain', (_req, res) => res.end('ok'));
    const sdk = new AbortController();
    const call = new AbortController();
    const response = await fetch(`${base}/plain`, { signal: sdk.signal, ...callFetchOptions(call.signal) });
    assert.equal(await response.text(), 'ok');
    assert.equal(getEventListeners(sdk.signal, 'abort').length, 0);
    assert.equal(getEventListeners(call.signal, 'abort').length, 0);
  });

  it('an already-aborted signal never sends', async () => {
    let hits = 0;
    routes.set('/count', (_req, res) => void (hits++, res.end()));
    await assert.rejects(fetch(`${base}/count`, { signal: AbortSignal.abort() }), { name: 'AbortError' });
    assert.equal(hits, 0);
  });

  it('a refused connection rejects like fetch: TypeError with the socket error as cause', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    await assert.rejects(fetch(`http://127.0.0.1:${port}/`), (error: Error) => {
      assert.ok(error instanceof TypeError);
      assert.equal((error.cause as { code?: string }).code, 'ECONNREFUSED');
      return true;
    });
  });

  it('a connection cut mid-body fails the reader with ECONNRESET', async () => {
    routes.set('/cut', (req, res) => {
      res.writeHead(200, { 'content-length': '100' });
      res.write('only part', () => req.socket.destroy());
    });
    const response = await fetch(`${base}/cut`);
    await assert.rejects(
      response.text(),
      (error: Error & { code?: string }) => error.code === 'ECONNRESET' || /aborted/.test(error.message),
    );
  });

  it('hands what it does not cover to the fallback fetch', async () => {
    const seen: unknown[] = [];
    const withFallback = nodeHttpFetch(async (input) => {
      seen.push(input);
      return new Response('from fallback');
    });
    const form = new FormData();
    form.set('f', 'v');
    assert.equal(await (await withFallback(`${base}/echo`, { method: 'POST', body: form })).text(), 'from fallback');
    assert.equal(await (await withFallback(new Request(`${base}/echo`))).text(), 'from fallback');
    assert.equal(seen.length, 2);
  });
});
