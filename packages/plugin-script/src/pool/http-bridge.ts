import { errorMessage } from '@agentest/kernel/errors';
import type { HttpCall, HttpReply } from './protocol.js';

/**
 * Performs one request of a script's `http` object on the main thread, where `fetch` can run while
 * the script's thread is blocked (Yao's `http.Get` is synchronous). Never throws: a request that gets
 * no reply (refused, timed out, bad URL) comes back as gou does it, with status 0 and the reason in
 * `message`, so the script decides what to do.
 */
export async function sendHttp(call: HttpCall): Promise<HttpReply> {
  let response: Response;
  try {
    response = await fetch(call.url, {
      method: call.method,
      headers: call.headers,
      ...(call.body !== undefined && call.method !== 'GET' && call.method !== 'HEAD' ? { body: call.body } : {}),
      signal: AbortSignal.timeout(Math.max(1, call.timeoutMs)),
      redirect: 'follow',
    });
  } catch (error) {
    return failure(`${call.method} ${call.url}: ${reason(error)}`);
  }
  const headers: Record<string, string[]> = {};
  response.headers.forEach((value, name) => {
    (headers[canonical(name)] ??= []).push(value);
  });
  let text: string;
  try {
    text = call.method === 'HEAD' ? '' : await response.text();
  } catch (error) {
    return failure(`${call.method} ${call.url}: the reply broke off: ${reason(error)}`);
  }
  return {
    status: response.status,
    code: response.status,
    message: response.statusText,
    headers,
    data: parseBody(text, response.headers.get('content-type')),
  };
}

/** gou decodes JSON replies; anything else (HTML, text) stays a string. An empty body is null. */
function parseBody(text: string, contentType: string | null): unknown {
  if (text === '') return null;
  if (contentType && /\bjson\b/i.test(contentType)) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

function failure(message: string): HttpReply {
  return { status: 0, code: 0, message, headers: {}, data: null };
}

function reason(error: unknown): string {
  if (error instanceof Error && error.name === 'TimeoutError') return 'no reply before the time limit';
  const cause = (error as { cause?: unknown } | null)?.cause;
  return cause ? errorMessage(cause) : errorMessage(error);
}

/** Go's `http.Header` keys are canonical: `content-type` → `Content-Type`. */
function canonical(name: string): string {
  return name.replace(/(^|-)([a-z])/g, (_match, dash: string, letter: string) => dash + letter.toUpperCase());
}
