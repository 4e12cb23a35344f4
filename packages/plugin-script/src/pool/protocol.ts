import type { MessagePort } from 'node:worker_threads';
import type { JudgeAsk } from '../script-judge.js';
import type { SnapshotAsk } from '../script-snapshot.js';
import type { TestOutcome } from './types.js';
import type { Retirement } from '../coverage/coverage-protocol.js';

/** One task posted to a worker. `code` is the compiled bundle; `key` identifies it for the cache. */
export interface WorkerTask {
  /** `ping` only proves the thread is up (sent once per thread when the pool starts). */
  mode: 'call' | 'test' | 'ping';
  key: string;
  code: string;
  filename: string;
  fn: string;
  args: unknown[];
  timeoutMs: number;
  host?: { names: string[]; port: MessagePort };
  beforeEach?: boolean;
  afterEach?: boolean;
  main?: unknown;
  /** Set to 1 by the worker when it starts the task: the main thread's hard stop counts from then. */
  started?: Int32Array;
  /** Set while a run collects coverage: the thread starts its profiler before it runs the task. */
  coverage?: boolean;
  /** Yao's runtime for this task: which argument is `ctx`, and the channel `Process()` asks through. */
  yao?: { ctxArg?: number; processes?: ProcessChannelEnd };
}

/**
 * The worker's end of the `Process()` channel. The worker posts `{name}`, blocks on `cell` until the
 * main thread has answered, then takes the `ProcessReply` with `receiveMessageOnPort`.
 */
export interface ProcessChannelEnd {
  port: MessagePort;
  cell: Int32Array;
}

/**
 * What the worker posts on that channel: a process name, one request of Yao's `http` object, or the
 * arguments of a `t.assert.Agent` call (judged on the main thread, where the agents are), or a
 * `t.assert.MatchSnapshot` value (compared with the run's snapshot store there).
 * `stubOnly` asks only for a stub (a hook's `ctx.agent.Call` and the like, which nothing else runs).
 */
export type ChannelAsk =
  { name: string; stubOnly?: boolean } | { http: HttpCall } | { judge: JudgeAsk } | { snapshot: SnapshotAsk };

/** One `http.Get/Post/…` call, already shaped by the worker: the URL carries the query. */
export interface HttpCall {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** How long the caller may still wait, in ms. */
  timeoutMs: number;
}

/**
 * gou's http response as scripts see it: `data` is parsed JSON for JSON replies, else text; `status` 0 when no reply
 * came.
 */
export interface HttpReply {
  status: number;
  code: number;
  message: string;
  headers: Record<string, string[]>;
  data: unknown;
}

/** What the main thread answers for one process name. */
export type ProcessReply =
  | {
      ok: true;
      target:
        | { kind: 'script'; key: string; code: string; filename: string; fn: string; file: string }
        | { kind: 'value'; value: unknown };
    }
  | { ok: false; error: string; /** A `stubOnly` ask for a name nobody stubbed. */ unstubbed?: boolean };

export interface WorkerResult {
  status: 'ok' | 'missing' | 'error' | 'timeout' | TestOutcome['status'];
  value?: unknown;
  error?: string;
  /** The raw stack of a thrown error, mapped to the user's source on the main thread. */
  stack?: string;
  assertion?: TestOutcome['assertion'];
  logs: string[];
  durationMs: number;
  /** Under coverage: the thread is full and must be replaced (see `retirement` in the worker). */
  retire?: Retirement;
}
