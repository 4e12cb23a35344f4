import type { IncomingHttpHeaders } from 'node:http';

/** Which wire protocol a request used. */
export type FakeApi = 'openai' | 'anthropic';

/** A tool call the fake model makes; `arguments` is sent as JSON text unless it already is a string. */
export interface FakeToolCall {
  name: string;
  arguments?: unknown;
  id?: string;
}

/** What the fake model answers: plain text, or text plus tool calls and overrides. */
export type FakeReply =
  | string
  | {
      text?: string;
      toolCalls?: FakeToolCall[];
      /** Reasoning text (`reasoning_content` on OpenAI, a `thinking` block on Anthropic). */
      reasoning?: string;
      /** Defaults to `stop`/`end_turn`, or `tool_calls`/`tool_use` when there are tool calls. */
      finishReason?: string;
      usage?: { prompt_tokens?: number; completion_tokens?: number };
    };

/** What rules and reply functions see about a request. */
export interface MatchInput {
  /** Text of the last user message (text parts joined with newlines). */
  text: string;
  request: RecordedRequest;
}

/**
 * A fault injected instead of (or in the middle of) a normal reply.
 * Shorthands accepted wherever a fault is: a status number (`429`), or `'hang' | 'malformed' | 'cut' | 'reset'`.
 */
export type Fault =
  /** An HTTP error in the API's own error format; `retryAfter` sets `Retry-After` (seconds, or an HTTP date). */
  | { type: 'status'; status: number; retryAfter?: number | string; message?: string }
  /** Accept the request and never answer, until the client gives up or the server closes. */
  | { type: 'hang' }
  /** Answer 200 with a body that is not valid JSON (a broken SSE event when streaming). */
  | { type: 'malformed' }
  /** Start the reply, then destroy the socket: after `afterChunks` SSE chunks, or half the JSON body. */
  | { type: 'cut'; afterChunks?: number }
  /** Destroy the socket without answering (the client sees a connection reset). */
  | { type: 'reset' }
  /** A successful reply whose text is `bytes` long. */
  | { type: 'huge'; bytes: number };

export type FaultSpec = Fault | number | 'hang' | 'malformed' | 'cut' | 'reset';

/** A fault applied to every `every`-th chat request (counting from 1, offset shifts the phase). */
export interface FaultSchedule {
  every: number;
  offset?: number;
  fault: FaultSpec;
}

export interface FakeRule {
  /** Tested against the last user message. A string is a case-insensitive regex source. No `match` = always. */
  match?: RegExp | string | ((input: MatchInput) => boolean);
  reply?: FakeReply | ((input: MatchInput) => FakeReply);
  fault?: FaultSpec;
  latencyMs?: number;
  /** The rule applies this many times, then is skipped (e.g. one 500, then the normal reply). */
  times?: number;
}

/** The fake model's behaviour; replaceable at any time with `setScript`. */
export interface FakeLlmScript {
  rules?: FakeRule[];
  /** Reply when no rule matches. Without it (and without `echo`), the reply is `"OK"`. */
  default?: FakeReply;
  /** Reply to unmatched requests with the last user message. */
  echo?: boolean;
  /** Delay before answering, in ms (rules may override). */
  latencyMs?: number;
  faults?: FaultSchedule[];
  /** Faults consumed one per request, in order, before anything else; `null` lets one request through. */
  queue?: (FaultSpec | null)[];
}

export interface FakeLlmOptions extends FakeLlmScript {
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
  /** When set, requests must carry `Authorization: Bearer <key>` or `x-api-key: <key>`, else 401. */
  apiKey?: string;
  /** Keep every request in `requests` (default true; turn off for very long benchmarks). */
  record?: boolean;
}

export interface RecordedRequest {
  /** 1-based position among chat requests (the count `every` schedules use). */
  index: number;
  method: string;
  path: string;
  api: FakeApi | 'other';
  headers: IncomingHttpHeaders;
  /** Parsed JSON body, or the raw text when it is not JSON. */
  body: unknown;
  stream: boolean;
  model?: string;
  /** Text of the last user message. */
  text: string;
  /** The fault applied, if any (`status:429`, `hang`, …). */
  fault?: string;
  receivedAt: number;
}

export interface FakeLlm {
  url: string;
  port: number;
  /** Every request received, in arrival order. */
  readonly requests: RecordedRequest[];
  setScript(script: FakeLlmScript): void;
  /** Appends faults to the queue (consumed one per request). */
  queueFaults(...faults: (FaultSpec | null)[]): void;
  /** Ends every connection, hung ones included, and stops listening. */
  close(): Promise<void>;
}
