import { availableParallelism } from 'node:os';
import { extname } from 'node:path';
import { Piscina } from 'piscina';
import { errorMessage } from '@agentest/kernel';
import { compileModule, type CompiledModule } from '../compile/compile.js';
import { openHostChannel } from './host-channel.js';
import { Limiter } from './limiter.js';
import type { WorkerResult, WorkerTask } from './protocol.js';
import type { FunctionCall, FunctionResult, ScriptPool, ScriptPoolOptions, TestCall, TestOutcome } from './types.js';

export const DEFAULT_MEMORY_LIMIT_MB = 256;
// The worker file sits next to this one: `.ts` when run from source, `.js` once built.
const WORKER = new URL(`../worker/worker${extname(new URL(import.meta.url).pathname)}`, import.meta.url);

/**
 * The piscina-backed sandbox. Threads start on first use. Each task is given a grace period after its
 * timeout to stop by itself (the worker's own timers catch sync loops and hung promises); only a
 * thread that stays blocked is terminated, and piscina replaces it.
 */
export class WorkerScriptPool implements ScriptPool {
  private piscina?: Piscina;
  private readonly limiter: Limiter;
  private readonly threads: number;
  private readonly memoryLimitMb: number;
  private closed = false;

  constructor(options: ScriptPoolOptions = {}) {
    this.threads = Math.max(1, options.maxThreads ?? availableParallelism());
    this.memoryLimitMb = options.memoryLimitMb ?? DEFAULT_MEMORY_LIMIT_MB;
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
    const location = compiled.locate(result.stack);
    const error = result.error ?? 'unknown error';
    return { status: result.status === 'timeout' ? 'timeout' : 'error', error: location ? `${error} (at ${location})` : error, logs };
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
      mode: 'test', ...taskOf(compiled, request),
      ...(request.beforeEach ? { beforeEach: true } : {}), ...(request.afterEach ? { afterEach: true } : {}),
      ...(request.main !== undefined ? { main: request.main } : {}),
    };
    const result = await this.dispatch(task, compiled, request, signal);
    const location = compiled.locate(result.stack);
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

  async close(): Promise<void> {
    this.closed = true;
    const piscina = this.piscina;
    this.piscina = undefined;
    await piscina?.destroy();
  }

  private async dispatch(task: WorkerTask, compiled: CompiledModule, request: FunctionCall, signal?: AbortSignal): Promise<WorkerResult> {
    const started = performance.now();
    if (this.closed) return { status: 'error', error: 'the script pool is closed', logs: [], durationMs: 0 };
    if (!(await this.limiter.acquire(signal))) return { status: 'timeout', error: `stopped before it started: ${reasonOf(signal)}`, logs: [], durationMs: 0 };
    const controller = new AbortController();
    const grace = graceFor(request.timeoutMs);
    let stoppedBy: 'timeout' | 'signal' | undefined;
    const hardStop = setTimeout(() => {
      stoppedBy ??= 'timeout';
      controller.abort();
    }, request.timeoutMs + grace);
    let graceTimer: ReturnType<typeof setTimeout> | undefined;
    const onAbort = () => {
      graceTimer = setTimeout(() => {
        stoppedBy ??= 'signal';
        controller.abort();
      }, grace);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    const channel = request.host && Object.keys(request.host).length ? openHostChannel(request.host) : undefined;
    if (channel) task.host = { names: channel.names, port: channel.port };
    try {
      return await this.workers().run(task, { signal: controller.signal, ...(channel ? { transferList: [channel.port] } : {}) });
    } catch (error) {
      return { ...this.crash(error, stoppedBy, request, signal), logs: [], durationMs: performance.now() - started };
    } finally {
      clearTimeout(hardStop);
      clearTimeout(graceTimer);
      signal?.removeEventListener('abort', onAbort);
      channel?.close();
      this.limiter.release();
    }
  }

  /** What a task that took its worker down becomes: a timeout, an out-of-memory error, or a crash. */
  private crash(error: unknown, stoppedBy: 'timeout' | 'signal' | undefined, request: FunctionCall, signal?: AbortSignal): { status: 'error' | 'timeout'; error: string } {
    const code = (error as { code?: string } | null)?.code;
    if (stoppedBy === 'timeout') return { status: 'timeout', error: `timeout after ${request.timeoutMs}ms (the script blocked its worker, which was replaced)` };
    if (stoppedBy === 'signal') return { status: 'timeout', error: `stopped: ${reasonOf(signal)}` };
    if (code === 'ERR_WORKER_OUT_OF_MEMORY') return { status: 'error', error: `the script ran out of memory (limit ${this.memoryLimitMb} MB per worker); its worker was replaced` };
    return { status: 'error', error: `the script's worker stopped: ${errorMessage(error)}` };
  }

  private workers(): Piscina {
    this.piscina ??= new Piscina({
      filename: WORKER.href,
      minThreads: this.threads,
      maxThreads: this.threads,
      idleTimeout: 60_000,
      concurrentTasksPerWorker: 1,
      resourceLimits: {
        maxOldGenerationSizeMb: this.memoryLimitMb,
        maxYoungGenerationSizeMb: Math.min(64, Math.max(4, Math.round(this.memoryLimitMb / 8))),
      },
    });
    return this.piscina;
  }
}

function taskOf(compiled: CompiledModule, request: FunctionCall): Pick<WorkerTask, 'key' | 'code' | 'filename' | 'fn' | 'args' | 'timeoutMs'> {
  return { key: compiled.key, code: compiled.code, filename: compiled.filename, fn: request.fn, args: request.args, timeoutMs: request.timeoutMs };
}

/** How long a timed-out task may take to stop by itself before its thread is terminated. */
function graceFor(timeoutMs: number): number {
  return Math.min(250, Math.max(50, Math.round(timeoutMs / 4)));
}

function reasonOf(signal?: AbortSignal): string {
  const reason = signal?.reason;
  return reason === undefined ? 'aborted' : errorMessage(reason);
}
