import type { IncomingMessage } from 'node:http';
import { lastUserText } from './request-text.js';
import type { FakeApi, RecordedRequest } from './types.js';

/** The chat endpoints the fake answers, with and without the `/v1` prefix that SDKs add to a base URL. */
const ROUTES: Record<string, FakeApi> = {
  '/v1/chat/completions': 'openai',
  '/chat/completions': 'openai',
  '/v1/messages': 'anthropic',
  '/messages': 'anthropic',
};

/** Which API a request speaks, or undefined when it is not a chat request. */
export function chatApi(method: string | undefined, path: string): FakeApi | undefined {
  return method === 'POST' ? ROUTES[path] : undefined;
}

export function isModelList(method: string | undefined, path: string): boolean {
  return method === 'GET' && (path === '/v1/models' || path === '/models');
}

export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    // Most bodies come in one chunk, which needs no copy to be read.
    req.on('end', () => resolve((chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)).toString('utf8')));
    req.on('error', reject);
  });
}

/** What the test sees of a chat request; `parsed` is false when the body is not JSON (the body is then the text). */
export function recordRequest(
  req: IncomingMessage,
  path: string,
  api: FakeApi,
  raw: string,
  index: number,
): { record: RecordedRequest; parsed: boolean } {
  let body: unknown = raw;
  let parsed = true;
  try {
    body = raw ? JSON.parse(raw) : {};
  } catch {
    parsed = false;
  }
  const record: RecordedRequest = {
    index,
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
  return { record, parsed };
}

/** OpenAI sends the key as a bearer token, Anthropic as `x-api-key`; either is accepted. */
export function authorized(req: IncomingMessage, key: string): boolean {
  return req.headers.authorization === `Bearer ${key}` || req.headers['x-api-key'] === key;
}
