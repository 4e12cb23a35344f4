import type { WorkerScriptPool } from './script-pool.js';
import type { FunctionCall, ScriptPool, ScriptPoolOptions, TestCall } from './types.js';

/**
 * The worker pool behind a module that loads with its first call: the script plugin is part of every
 * run, while the pool (the bundler's glue, the worker channels, the HTTP bridge) is needed only by a
 * run that calls user code.
 */
export class LazyScriptPool implements ScriptPool {
  private started: Promise<WorkerScriptPool> | undefined;
  private closed = false;

  constructor(private readonly options: ScriptPoolOptions) {}

  async call(request: FunctionCall, signal?: AbortSignal) {
    return (await this.pool()).call(request, signal);
  }

  async test(request: TestCall, signal?: AbortSignal) {
    return (await this.pool()).test(request, signal);
  }

  async warm(files?: readonly string[]) {
    return (await this.pool()).warm(files);
  }

  async close() {
    this.closed = true;
    // A pool that never started has nothing to close; one whose module failed to load neither.
    await (await this.started?.catch(() => undefined))?.close();
  }

  private pool(): Promise<WorkerScriptPool> {
    return (this.started ??= import('./script-pool.js').then(async ({ WorkerScriptPool }) => {
      const pool = new WorkerScriptPool(this.options);
      // Called after close(): the calls get the closed pool's answer, as they would have before.
      if (this.closed) await pool.close();
      return pool;
    }));
  }
}
