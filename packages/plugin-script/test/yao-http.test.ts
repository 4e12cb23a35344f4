import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createScriptPool, yaoProcessResolver, type ScriptPool } from '../src/index.js';
import { HANG_MS } from './helpers.js';

/** A hook that uses Yao's synchronous `http` object the way real Yao scripts do. */
const HOOK_SOURCE = `import { http } from "@yao/runtime";
export function Page(base: string) {
  const resp = http.Get(base + "/page", { q: "shoes", tag: ["a", "b"] }, { "X-Shop": "north" });
  return { status: resp.status, type: typeof resp.data, data: resp.data, header: resp.headers["Content-Type"] };
}
export function Order(base: string) {
  const resp = http.Post(base + "/orders?src=hook", { item: "tea", qty: 2 });
  return resp.data;
}
export function Verbs(base: string) {
  return [
    http.Put(base + "/orders/1", "plain text body").data.body,
    http.Delete(base + "/orders/1").data.method,
    http.Send("patch", base + "/orders/1", { qty: 3 }).data.headers["content-type"],
  ];
}
export function Missing(base: string) {
  const resp = http.Get(base + "/missing");
  return { status: resp.status, data: resp.data };
}
export function Down(url: string) {
  const resp = http.Get(url);
  return { status: resp.status, message: resp.message };
}
export function Streaming(base: string) {
  return http.Stream("GET", base + "/page", () => 1);
}`;

describe('Yao http object in the sandbox', () => {
  const root = mkdtempSync(join(tmpdir(), 'agentest-yao-http-'));
  const hook = join(root, 'assistants/shop/src/index.ts');
  let server: Server;
  let base = '';
  let pool: ScriptPool;

  before(async () => {
    for (const [path, content] of Object.entries({
      'app.yao': '{}',
      'assistants/shop/package.yao': '{}',
      'assistants/shop/src/index.ts': HOOK_SOURCE,
    })) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), content);
    }
    server = createServer(async (req, res) => {
      const body = await read(req);
      if (req.url?.startsWith('/page')) {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(`<title>Shop</title> url=${req.url} shop=${req.headers['x-shop']}`);
      } else if (req.url?.startsWith('/orders')) {
        res.writeHead(201, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ method: req.method, url: req.url, body, headers: req.headers }));
      } else {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end('{"message":"no such page"}');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    pool = createScriptPool({ maxThreads: 1, memoryLimitMb: 64 });
  });
  after(async () => {
    await pool.close();
    await new Promise((resolve) => server.close(resolve));
    rmSync(root, { recursive: true, force: true });
  });

  const processes = yaoProcessResolver({ root, cwd: root, stubs: {}, stubHint: (name) => `stub ${name}` });
  const call = (fn: string, args: unknown[], yao: boolean = true) =>
    pool.call({ file: hook, fn, args, timeoutMs: HANG_MS, ...(yao ? { yao: { processes } } : {}) });
  const value = async (fn: string, args: unknown[]) => {
    const result = await call(fn, args);
    assert.equal(result.status, 'ok', JSON.stringify(result));
    return result.status === 'ok' ? result.value : undefined;
  };

  it('answers http.Get synchronously with query, headers, text data and Go-style header names', async () => {
    assert.deepEqual(await value('Page', [base]), {
      status: 200,
      type: 'string',
      data: '<title>Shop</title> url=/page?q=shoes&tag=a&tag=b shop=north',
      header: ['text/html'],
    });
  });

  it("posts JSON by default, keeps the URL's own query and parses a JSON reply", async () => {
    const order = (await value('Order', [base])) as {
      method: string;
      url: string;
      body: string;
      headers: Record<string, string>;
    };
    assert.equal(order.method, 'POST');
    assert.equal(order.url, '/orders?src=hook');
    assert.deepEqual(JSON.parse(order.body), { item: 'tea', qty: 2 });
    assert.match(order.headers['content-type']!, /^application\/json/);
  });

  it('sends strings as they are, and Send defaults to text/plain', async () => {
    assert.deepEqual(await value('Verbs', [base]), ['plain text body', 'DELETE', 'text/plain']);
  });

  it('returns error statuses as data, and status 0 with the reason when nothing answers', async () => {
    assert.deepEqual(await value('Missing', [base]), { status: 404, data: { message: 'no such page' } });
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const down = (await value('Down', [`http://127.0.0.1:${port}/nothing`])) as { status: number; message: string };
    assert.equal(down.status, 0);
    assert.match(down.message, new RegExp(`^GET http://127\\.0\\.0\\.1:${port}/nothing: .*ECONNREFUSED`));
  });

  it('refuses http.Stream, and http outside Yao code, with a message saying what to use', async () => {
    const stream = await call('Streaming', [base]);
    assert.match(
      stream.status === 'error' ? stream.error : '',
      /http\.Stream is not available when agentest runs a script/,
    );
    const plain = await call('Page', [base], false);
    assert.match(
      plain.status === 'error' ? plain.error : '',
      /http is available in Yao hooks, processes and script tests only; use fetch here/,
    );
  });
});

function read(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    req.on('data', (chunk) => (text += chunk));
    req.on('end', () => resolve(text));
  });
}
