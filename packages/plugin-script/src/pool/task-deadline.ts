/**
 * The main thread's last line of defence for one task. The worker stops sync loops and hung promises
 * itself at the timeout; only a thread that stays blocked (a loop after an `await`) is terminated,
 * `grace` after the timeout. The clock starts when the worker takes the task (it flips `started`),
 * so the start-up of a thread that replaced a killed one is never charged to the next task. An
 * external abort (the kernel's timeout, an interruption) gets the same grace before the hard stop.
 */
export class TaskDeadline {
  /** Shared with the worker, which sets it to 1 when the task starts. */
  readonly started = new Int32Array(new SharedArrayBuffer(4));
  private readonly controller = new AbortController();
  private readonly timers: ReturnType<typeof setTimeout>[] = [];
  private done = false;
  stoppedBy?: 'timeout' | 'signal';

  constructor(
    private readonly timeoutMs: number,
    private readonly external?: AbortSignal,
  ) {
    const waiting = waitAsync(this.started);
    if (waiting) void waiting.then(() => this.stopAfter(timeoutMs + this.grace, 'timeout'));
    else this.stopAfter(timeoutMs + this.grace, 'timeout');
    external?.addEventListener('abort', this.onExternalAbort, { once: true });
  }

  /** Aborts the piscina task, which terminates its thread. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** How long a timed-out task may take to stop by itself before its thread is terminated. */
  get grace(): number {
    return Math.min(1000, Math.max(100, Math.round(this.timeoutMs / 4)));
  }

  dispose(): void {
    this.done = true;
    Atomics.notify(this.started, 0);
    this.timers.forEach(clearTimeout);
    this.external?.removeEventListener('abort', this.onExternalAbort);
  }

  private readonly onExternalAbort = () => this.stopAfter(this.grace, 'signal');

  private stopAfter(ms: number, why: 'timeout' | 'signal'): void {
    if (this.done) return;
    this.timers.push(
      setTimeout(() => {
        this.stoppedBy ??= why;
        this.controller.abort();
      }, ms),
    );
  }
}

/** `Atomics.waitAsync(cell, 0, 0)` as a promise, or undefined when the cell is already set. */
function waitAsync(cell: Int32Array): Promise<unknown> | undefined {
  const wait = (
    Atomics as unknown as {
      waitAsync(a: Int32Array, i: number, v: number): { async: boolean; value: Promise<unknown> };
    }
  ).waitAsync(cell, 0, 0);
  return wait.async ? wait.value : undefined;
}
