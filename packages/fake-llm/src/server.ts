import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { anthropicError, anthropicJson, anthropicStream } from './anthropic-format.js';
import { describeFault, errorTypeFor, normalizeFault, retryAfterHeader } from './faults.js';
import { openaiError, openaiJson, openaiStream } from './openai-format.js';
import { estimateTokens, lastUserText, promptText } from './request-text.js';
import { Planner, type Plan } from './script.js';
import type { ReplyContext } from './sse.js';
import type { FakeApi, FakeLlm, FakeLlmOptions, Fault, RecordedRequest } from './types.js';

const ROUTES: Record<string, FakeApi> = {
  '/v1/chat/completions': 'openai',
  '/chat/completions': 'openai',
  '/v1/messages': 'anthropic',
  '/messages': 'anthropic',
};

/**
 * Starts a real HTTP server on 127.0.0.1 that answers like OpenAI's chat completions and Anthropic's
 * messages APIs, following a script of replies and faults. Resolves once it is listening.
 */
export async function startFakeLlm(options: FakeLlmOptions = {}): Promise<FakeLlm> {
  const planner = new Planner(options);
  const requests: RecordedRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let chatCount = 0;
  let closed = false;

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0];
    const raw = await readBody(req);
    const api = req.method === 'POST' ? ROUTES[path] : undefined;
    if (!api) {
      if (req.method === 'GET' && (path === '/v1/models' || path === '/models'))
        return sendJson(res, 200, {
          object: 'list',
          data: [{ id: 'fake-model', object: 'model', created: 0, owned_by: 'fake-llm' }],
        });
      return sendJson(res, 404, openaiError(404, 'not_found', `fake-llm: no route for ${req.method} ${path}`));
    }

    let body: unknown = raw;
    let parsed = true;
    try {
      body = raw ? JSON.parse(raw) : {};
    } catch {
      parsed = false;
    }
    const record: RecordedRequest = {
      index: ++chatCount,
      method: req.method ?? 'POST',
      path,
      api,
      headers: req.headers,
      body,
      stream: parsed && (body as { stream?: unknown }).stream === true,
      model: parsed ? ((body as { model?: string }).model ?? undefined) : undefined,
      text: parsed ? lastUserText(body) : '',
      receivedAt: Date.now(),
    };
    if (options.record !== false) requests.push(record);

    const fail = (status: number, message: string, headers: Record<string, string> = {}) => {
      const type = errorTypeFor(status, api);
      sendJson(
        res,
        status,
        api === 'openai' ? openaiError(status, type, message) : anthropicError(status, type, message),
        headers,
      );
    };
    if (!parsed) return fail(400, 'fake-llm: the request body is not valid JSON');
    if (options.apiKey && !authorized(req, options.apiKey)) return fail(401, 'fake-llm: missing or wrong API key');

    const plan = planner.plan(record);
    if (plan.fault) record.fault = describeFault(plan.fault);
    const fault = plan.fault;
    if (fault?.type === 'reset') return void req.socket.destroy();
    if (fault?.type === 'hang') return; // never answered; close() ends the connection
    if (fault?.type === 'status') {
      const retryAfter = retryAfterHeader(fault.retryAfter);
      return fail(
        fault.status,
        fault.message ?? `fake-llm: injected ${fault.status}`,
        retryAfter ? { 'retry-after': retryAfter } : {},
      );
    }

    if (plan.latencyMs > 0) await sleep(plan.latencyMs);
    if (closed || res.destroyed) return;
    respond(res, api, record, plan, fault);
  }

  function respond(
    res: ServerResponse,
    api: FakeApi,
    record: RecordedRequest,
    plan: Plan,
    fault: Fault | undefined,
  ): void {
    const reply = fault?.type === 'huge' ? { ...plan.reply, text: 'x'.repeat(fault.bytes) } : plan.reply;
    const body = record.body as { stream_options?: { include_usage?: boolean } };
    const ctx: ReplyContext = {
      id: `${api === 'openai' ? 'chatcmpl-' : 'msg_'}${String(record.index).padStart(8, '0')}`,
      model: record.model ?? 'fake-model',
      created: Math.floor(Date.now() / 1000),
      promptTokens: estimateTokens(promptText(record.body)),
      includeUsage: body.stream_options?.include_usage === true,
    };

    if (!record.stream) {
      const json = JSON.stringify(api === 'openai' ? openaiJson(reply, ctx) : anthropicJson(reply, ctx));
      if (fault?.type === 'malformed')
        return sendRaw(res, 200, json.slice(0, Math.max(1, Math.floor(json.length / 2))));
      if (fault?.type === 'cut') {
        // Promise the whole body, deliver half, then drop the connection.
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(json) });
        res.write(json.slice(0, Math.floor(json.length / 2)), () => res.destroy());
        return;
      }
      return sendRaw(res, 200, json);
    }

    const events = api === 'openai' ? openaiStream(reply, ctx) : anthropicStream(reply, ctx);
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    if (fault?.type === 'cut') {
      const keep = Math.min(fault.afterChunks ?? Math.ceil(events.length / 2), events.length - 1);
      res.write(events.slice(0, keep).join(''), () => res.destroy());
      return;
    }
    if (fault?.type === 'malformed') {
      res.end(`${events[0]}data: {"broken": \n\n`);
      return;
    }
    res.end(events.join(''));
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent)
        sendJson(res, 500, openaiError(500, 'server_error', `fake-llm internal error: ${(error as Error).message}`));
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  return {
    url: `http://${host}:${address.port}`,
    port: address.port,
    requests,
    setScript: (script) => planner.setScript(script),
    queueFaults: (...faults) => planner.enqueue(faults.map((f) => (f === null ? null : normalizeFault(f)))),
    close: async () => {
      if (closed) return;
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      const done = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await done;
    },
  };
}

function authorized(req: IncomingMessage, key: string): boolean {
  return req.headers.authorization === `Bearer ${key}` || req.headers['x-api-key'] === key;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  sendRaw(res, status, JSON.stringify(body), headers);
}

function sendRaw(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}
