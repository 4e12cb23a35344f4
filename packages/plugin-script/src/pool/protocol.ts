import type { MessagePort } from 'node:worker_threads';
import type { TestOutcome } from './types.js';

/** One task posted to a worker. `code` is the compiled bundle; `key` identifies it for the cache. */
export interface WorkerTask {
  mode: 'call' | 'test';
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
}

export interface WorkerResult {
  status: 'ok' | 'missing' | 'error' | 'timeout' | TestOutcome['status'];
  value?: unknown;
  error?: string;
  /** The raw stack of a thrown error, mapped to the user's source on the main thread. */
  stack?: string;
  assertion?: TestOutcome['assertion'];
  logs: string[];
  durationMs: number;
}
