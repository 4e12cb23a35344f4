import { availableParallelism } from 'node:os';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Piscina } from 'piscina';
import { errorMessage } from '@agentest/kernel/errors';
import { debugLogger } from '@agentest/kernel/secrets';
import { compileModule, type CompiledModule } from '../compile/compile.js';
import { openHostChannel } from './host-channel.js';
import { countCoverage, handOverCoverage, retireThread, takeThreadCoverage } from './coverage-pool.js';
import { Limiter } from './limiter.js';
import { openProcessChannel } from './process-channel.js';
import { sandboxEnv } from './sandbox-env.js';
import { TaskDeadline } from './task-deadline.js';
import type { WorkerResult, WorkerTask } from './protocol.js';
import type { ScriptCoverage } from '../coverage/coverage-protocol.js';
import type { FunctionCall, FunctionResult, ScriptPool, ScriptPoolOptions, TestCall, TestOutcome } from './types.js';

export const DEFAULT_MEMORY_LIMIT_MB = 256;
const debug = debugLogger('agentest:script');
/** How long the threads may take to answer their first ping before the pool reports that they cannot start. */
const DEFAULT_STARTUP_TIMEOUT_MS = 30_000;
// The worker file sits next to this one: `.ts` when run from source, `.js` once built.
const WORKER = new URL(`../worker/worker${extname(new URL(import.meta.url).pathname)}`, import.meta.url);
/** piscina loads with the first task: a run without scripts never pays for it. */
let piscinaClass: Promise<typeof Piscina> | undefined;
const START_HINT = `worker threads must be able to load ${fileURLToPath(WORKER)}: run the built CLI, or Node with --import tsx (a loader registered only in the main thread does not reach worker threads)`;

/**
 * The piscina-backed sandbox. Threads start on first use or at `warm()`; an own limiter hands piscina a task only
 * when a thread is free, so timeouts never count queue time. A task that blocks its thread is
 * terminated by its `TaskDeadline` and piscina replaces the thread.
 */
export class WorkerScriptPool implements ScriptPool {
  private piscina?: Piscina;
  private started?: Promise<unknown>;
  /** Set when the threads could not start (their module failed to load): every call gets it as its error. */
  private startFailure?: string;
  private readonly limiter: Limiter;
  private readonly threads: number;
  private readonly memoryLimitMb: number;
  private readonly startupTimeoutMs: number;
  private readonly env: Record<string, string>;
  private closed = false;

  constructor(options: ScriptPoolOptions = {}) {
    this.threads = Math.max(1, options.maxThreads ?? availableParallelism());
    this.memoryLimitMb = options.memoryLimitMb ?? DEFAULT_MEMORY_LIMIT_MB;
    this.startupTimeoutMs = options.startupTimeoutMs ?? DEFAULT_STARTUP_TIMEOUT_MS;
    this.env = sandboxEnv(options.env);
    this.limiter = new Limiter(this.threads);
  }

  async call(request: FunctionCall, signal?: AbortSignal): Promise<FunctionResult> {
    let compiled: CompiledModule;
    try {
      compiled = await compileModule(request.file, { alias: request.alias });
    } catch (error) {
      return { status: 'error', error: errorMessage(error), logs: [] };
    }
    const result = await this.dispatch({ mode: 'call', ...taskOf(compiled, request) }, compiled, request, signal);
    const logs = result.logs;
    if (result.status === 'ok') return { status: 'ok', value: result.value, logs };
    if (result.status === 'missing') return { status: 'missing', logs };
    const location = compiled.locate(result.stack, request.cwd);
    const error = result.error ?? 'unknown error';
    return {
      status: result.status === 'timeout' ? 'timeout' : 'error',
      error: location ? `${error} (at ${location})` : error,
      logs,
    };
  }

  async test(request: TestCall, signal?: AbortSignal): Promise<TestOutcome> {
    const started = performance.now();
    let compiled: CompiledModule;
    try {
      compiled = await compileModule(request.file, { alias: request.alias });
    } catch (error) {
      return { status: 'error', error: errorMessage(error), logs: [], durationMs: performance.now() - started };
    }
    const task: WorkerTask = {
      mode: 'test',
      ...taskOf(compiled, request),
      ...(request.beforeEach ? { beforeEach: true } : {}),
      ...(request.afterEach ? { afterEach: true } : {}),
      ...(request.main !== undefined ? { main: request.main } : {}),
    };
    const result = await this.dispatch(task, compiled, request, signal);
    const location = compiled.locate(result.stack, request.cwd);
    return {
      status: result.status as TestOutcome['status'],
      ...(result.error !== undefined ? { error: result.error } : {}),
      ...(location ? { location } : {}),
      ...(result.assertion ? { assertion: result.assertion } : {}),
      ...(result.value !== undefined ? { value: result.value } : {}),
      logs: result.logs,
      durationMs: result.durationMs,
    };
  }

  async warm(files: readonly string[] = []): Promise<void> {
    if (this.closed || this.startFailure) return;
    await this.workers();
    const bundles = files.map((file) => compileModule(file).catch(() => undefined));
    await Promise.all([this.started?.catch(() => undefined), ...bundles]);
  }

  /** The coverage the threads counted since the last take (see `coverage-pool.ts`). */
  async takeCoverage(): Promise<ScriptCoverage[]> {
    await this.started?.catch(() => undefined);
    return this.piscina ? takeThreadCoverage(this.piscina, this.threads) : [];
  }

  async close(): Promise<void> {
    await handOverCoverage(this);
    this.closed = true;
    const piscina = this.piscina;
    this.piscina = undefined;
    await this.started?.catch(() => undefined);
    await piscina?.destroy();
  }

  private async dispatch(
    task: WorkerTask,
    compiled: CompiledModule,
    request: FunctionCall,
    signal?: AbortSignal,
  ): Promise<WorkerResult> {
    const started = performance.now();
    if (this.closed) return { status: 'error', error: 'the script pool is closed', logs: [], durationMs: 0 };
    const workers = this.startFailure ? undefined : await this.workers();
    // Start-up does not count against the task's time limit, but a stopped run does not wait for it.
    if (!(await settledUnlessAborted(this.started, signal)))
      return {
        status: 'timeout',
        error: `stopped before it started: ${reasonOf(signal)}`,
        logs: [],
        durationMs: performance.now() - started,
      };
    if (this.startFailure || !workers)
      return {
        status: 'error',
        error: this.startFailure ?? 'the script pool is closed',
        logs: [],
        durationMs: performance.now() - started,
      };
    if (!(await this.limiter.acquire(signal)))
      return { status: 'timeout', error: `stopped before it started: ${reasonOf(signal)}`, logs: [], durationMs: 0 };
    const deadline = new TaskDeadline(request.timeoutMs, signal);
    task.started = deadline.started;
    countCoverage(task, this);
    const channel = request.host && Object.keys(request.host).length ? openHostChannel(request.host) : undefined;
    if (channel) task.host = { names: channel.names, port: channel.port };
    const processes =
      request.yao?.processes && compiled.usesHostRuntime
        ? openProcessChannel(request.yao.processes, request.yao.judge, request.yao.snapshot)
        : undefined;
    if (request.yao)
      task.yao = {
        ...(request.yao.ctxArg !== undefined ? { ctxArg: request.yao.ctxArg } : {}),
        ...(processes ? { processes: { port: processes.port, cell: processes.cell } } : {}),
      };
    const transferList = [channel?.port, processes?.port].filter((port) => port !== undefined);
    try {
      const result: WorkerResult = await workers.run(task, {
        signal: deadline.signal,
        ...(transferList.length ? { transferList } : {}),
      });
      await retireThread(workers, result);
      return result;
    } catch (error) {
      return {
        ...this.crash(error, deadline.stoppedBy, request, signal),
        logs: [],
        durationMs: performance.now() - started,
      };
    } finally {
      deadline.dispose();
      channel?.close();
      processes?.close();
      this.limiter.release();
    }
  }

  /** What a task that took its worker down becomes: a timeout, an out-of-memory error, or a crash. */
  private crash(
    error: unknown,
    stoppedBy: 'timeout' | 'signal' | undefined,
    request: FunctionCall,
    signal?: AbortSignal,
  ): { status: 'error' | 'timeout'; error: string } {
    const code = (error as { code?: string } | null)?.code;
    if (stoppedBy === 'timeout')
      return {
        status: 'timeout',
        error: `timeout after ${request.timeoutMs}ms (the script blocked its worker, which was replaced)`,
      };
    if (stoppedBy === 'signal') return { status: 'timeout', error: `stopped: ${reasonOf(signal)}` };
    if (code === 'ERR_WORKER_OUT_OF_MEMORY')
      return {
        status: 'error',
        error: `the script ran out of memory (limit ${this.memoryLimitMb} MB per worker); its worker was replaced`,
      };
    return { status: 'error', error: `the script's worker stopped: ${errorMessage(error)}` };
  }

  /**
   * Starts the threads on first use and waits until each answers a ping, so thread start-up (slower
   * when running from TypeScript sources) never counts against the first tasks' timeouts.
   */
  private async workers(): Promise<Piscina | undefined> {
    const Pool = await (piscinaClass ??= import('piscina').then((m) => m.Piscina));
    if (this.closed) return undefined;
    if (this.piscina) return this.piscina;
    this.piscina = new Pool({
      filename: WORKER.href,
      minThreads: this.threads,
      maxThreads: this.threads,
      idleTimeout: 60_000,
      concurrentTasksPerWorker: 1,
      // The threads' own environment: user code never sees the process's (connector keys included).
      env: this.env,
      resourceLimits: {
        maxOldGenerationSizeMb: this.memoryLimitMb,
        maxYoungGenerationSizeMb: Math.min(64, Math.max(4, Math.round(this.memoryLimitMb / 8))),
      },
    });
    const piscina = this.piscina;
    // Until every thread has answered its ping, a failing thread means the threads cannot start (their
    // module does not load): piscina would keep the tasks queued for a thread that never comes, so the
    // pool gives up and every call says why. A thread that hangs while loading gets the same after
    // `startupTimeoutMs`. Later, a worker can still die with no task of its own (a timed-out script
    // that runs out of memory before it is terminated): its task was settled and piscina replaces it.
    let ready = false;
    let giveUp!: (why: string) => void;
    const failed = new Promise<void>(
      (resolve) => (giveUp = (why) => void ((this.startFailure ??= `${why}; ${START_HINT}`), resolve())),
    );
    piscina.on('error', (error: unknown) => {
      if (ready) debug('a script worker stopped between tasks: %s', errorMessage(error));
      else giveUp(`the script sandbox could not start its worker threads: ${errorMessage(error)}`);
    });
    const pings = Promise.all(Array.from({ length: this.threads }, () => piscina.run({ mode: 'ping' }))).then(
      () => void (ready = true),
      (error: unknown) => giveUp(`the script sandbox could not start its worker threads: ${errorMessage(error)}`),
    );
    const watchdog = setTimeout(
      () => giveUp(`the script sandbox's worker threads did not start within ${this.startupTimeoutMs}ms`),
      this.startupTimeoutMs,
    ).unref();
    this.started = Promise.race([pings, failed]).then(async () => {
      clearTimeout(watchdog);
      if (!this.startFailure) return;
      debug('%s', this.startFailure);
      this.piscina = undefined;
      await piscina.destroy().catch(() => undefined);
    });
    return piscina;
  }
}

/** True once `started` settles (either way); false if `signal` aborts first. */
async function settledUnlessAborted(started: Promise<unknown> | undefined, signal?: AbortSignal): Promise<boolean> {
  if (!started) return true;
  if (!signal)
    return started.then(
      () => true,
      () => true,
    );
  if (signal.aborted) return false;
  let onAbort!: () => void;
  const aborted = new Promise<boolean>((resolve) =>
    signal.addEventListener('abort', (onAbort = () => resolve(false)), { once: true }),
  );
  try {
    return await Promise.race([
      started.then(
        () => true,
        () => true,
      ),
      aborted,
    ]);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

function taskOf(
  compiled: CompiledModule,
  request: FunctionCall,
): Pick<WorkerTask, 'key' | 'code' | 'filename' | 'fn' | 'args' | 'timeoutMs'> {
  return {
    key: compiled.key,
    code: compiled.code,
    filename: compiled.filename,
    fn: request.fn,
    args: request.args,
    timeoutMs: request.timeoutMs,
  };
}

function reasonOf(signal?: AbortSignal): string {
  const reason = signal?.reason;
  return reason === undefined ? 'aborted' : errorMessage(reason);
}
