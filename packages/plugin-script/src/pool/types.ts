import type { ScriptJudge } from '../script-judge.js';
import type { ScriptSnapshot } from '../script-snapshot.js';
/**
 * The sandbox every piece of user code runs in: script tests, `script` assertions, assistant hook
 * scripts and `test()` files. Nothing outside this package sees the worker pool behind it.
 */
export interface ScriptPool {
  /** Calls one function of a user module. Never rejects for anything the script does. */
  call(request: FunctionCall, signal?: AbortSignal): Promise<FunctionResult>;
  /** Runs one Go-style test function `fn(t, ...args)` with a testing `t` object. */
  test(request: TestCall, signal?: AbortSignal): Promise<TestOutcome>;
  /**
   * Starts the threads now, and bundles `files` (the scripts the run will call), and resolves once
   * both are done (a thread or file that fails is reported by the calls that need it). A run that will
   * use the sandbox calls it before its first case, so that start-up is not counted in the first
   * cases' durations. Never rejects.
   */
  warm(files?: readonly string[]): Promise<void>;
  close(): Promise<void>;
}

export interface FunctionCall {
  /** The user module (.ts/.js). Its sibling files are available to it as in script tests. */
  file: string;
  /** An exported or plain top-level function, or a function a runtime module put on `globalThis`. */
  fn: string;
  /** Structured-cloneable arguments. */
  args: unknown[];
  timeoutMs: number;
  /** Async functions on the main thread, reachable in the sandbox as `await __host.<name>(...args)`. */
  host?: Record<string, (...args: any[]) => Promise<unknown>>;
  /** Module aliases for the bundle, e.g. `{ agentest: '/abs/path/to/sandbox-runtime.js' }`. */
  alias?: Record<string, string>;
  /** Source locations in errors are relative to this directory (default: the process's). */
  cwd?: string;
  /** Yao's runtime inside the sandbox: what `Process(name, ...args)` runs, and which argument is Yao's `ctx`. */
  yao?: YaoRuntimeOptions;
}

export interface YaoRuntimeOptions {
  /**
   * Resolves a process name on the main thread when the script calls `Process(name, ...args)`. A
   * script target is loaded into the calling worker and called synchronously, as Yao does; a value
   * target is returned as it is; a throw becomes the error `Process()` throws in the script.
   * Without it, `Process()` throws a message saying that no Yao app is attached.
   */
  processes?: ProcessResolver;
  /** The argument that is Yao's `ctx`: it gets `Send`, `SendStream`, `trace`, … (recorded in the logs). */
  ctxArg?: number;
  /** Judges a script test's `t.assert.Agent` calls; without it they are errors saying so. */
  judge?: ScriptJudge;
  /** Compares a script test's `t.assert.MatchSnapshot` values with the run's snapshots; without it they are errors. */
  snapshot?: ScriptSnapshot;
}

/** Where a process goes: a function of a script module (run in the caller's sandbox thread), or a fixed value. */
export type ProcessTarget = { file: string; fn: string } | { value: unknown };
export type ProcessResolver = (name: string) => ProcessTarget | Promise<ProcessTarget>;

export type FunctionResult =
  | { status: 'ok'; value: unknown; logs: string[] }
  /** The function does not exist (hooks are optional). */
  | { status: 'missing'; logs: string[] }
  | { status: 'error' | 'timeout'; error: string; logs: string[] };

export interface TestCall extends FunctionCall {
  /** Run `BeforeEach(t, ...args)` / `AfterEach(t, ...args)` of the same module around the test. */
  beforeEach?: boolean;
  afterEach?: boolean;
  /** Exposed to the test as `t.main` (what `TestMain` returned). */
  main?: unknown;
}

/** What one test function did; the shape of Yao's script test result. */
export interface TestOutcome {
  status: 'passed' | 'failed' | 'error' | 'timeout' | 'skipped';
  error?: string;
  /** `file:line:col` in the user's source where an exception was thrown. */
  location?: string;
  /** The first failed `t.assert.*` call. */
  assertion?: { type: string; expected?: unknown; actual?: unknown; message: string };
  /** What the test function returned (TestMain's value becomes `t.main`). */
  value?: unknown;
  logs: string[];
  durationMs: number;
}

export interface ScriptPoolOptions {
  /** Worker threads; default: the machine's available parallelism, at least 1. */
  maxThreads?: number;
  /** V8 old-generation heap limit per worker, in MB (default 256). */
  memoryLimitMb?: number;
  /** How long the threads may take to start before every call fails saying they cannot (default 30 s). */
  startupTimeoutMs?: number;
  /**
   * Environment variables user code may read, besides `TZ`, `LANG` and `NODE_ENV` (default: none).
   * Every other variable, connector keys included, is absent from the threads' `process.env`.
   */
  env?: readonly string[];
}
