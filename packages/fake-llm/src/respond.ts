import type { ServerResponse } from 'node:http';
import { anthropicError, anthropicJson, anthropicStream } from './anthropic-format.js';
import { errorTypeFor } from './faults.js';
import { openaiError, openaiJson, openaiStream } from './openai-format.js';
import { promptLength, tokensForLength } from './request-text.js';
import type { Plan, PlannedReply } from './script.js';
import type { ReplyContext } from './sse.js';
import type { FakeApi, Fault, RecordedRequest } from './types.js';

/** Sends the planned reply in the request's API and mode (JSON or a stream), spoilt by the fault if there is one. */
export function respond(res: ServerResponse, api: FakeApi, record: RecordedRequest, plan: Plan): void {
  const fault = plan.fault;
  const reply: PlannedReply = fault?.type === 'huge' ? { ...plan.reply, text: 'x'.repeat(fault.bytes) } : plan.reply;
  const ctx = replyContext(api, record);
  if (record.stream)
    respondStream(res, api === 'openai' ? openaiStream(reply, ctx) : anthropicStream(reply, ctx), fault);
  else respondJson(res, JSON.stringify(api === 'openai' ? openaiJson(reply, ctx) : anthropicJson(reply, ctx)), fault);
}

/** An error body in the request's API's own shape. */
export function sendError(
  res: ServerResponse,
  api: FakeApi,
  status: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  const type = errorTypeFor(status, api);
  const body = api === 'openai' ? openaiError(status, type, message) : anthropicError(status, type, message);
  sendJson(res, status, body, headers);
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  sendRaw(res, status, JSON.stringify(body), headers);
}

function replyContext(api: FakeApi, record: RecordedRequest): ReplyContext {
  const body = record.body as { stream_options?: { include_usage?: boolean } };
  return {
    id: `${api === 'openai' ? 'chatcmpl-' : 'msg_'}${String(record.index).padStart(8, '0')}`,
    model: record.model ?? 'fake-model',
    created: Math.floor(Date.now() / 1000),
    promptTokens: tokensForLength(promptLength(record.body)),
    includeUsage: body.stream_options?.include_usage === true,
  };
}

function respondJson(res: ServerResponse, json: string, fault: Fault | undefined): void {
  if (fault?.type === 'malformed') return sendRaw(res, 200, json.slice(0, Math.max(1, Math.floor(json.length / 2))));
  if (fault?.type === 'cut') {
    // Promise the whole body, deliver half, then drop the connection.
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(json) });
    res.write(json.slice(0, Math.floor(json.length / 2)), () => res.destroy());
    return;
  }
  sendRaw(res, 200, json);
}

function respondStream(res: ServerResponse, events: string[], fault: Fault | undefined): void {
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

function sendRaw(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}
