/**
 * At most `size` tasks inside piscina at once. piscina has no per-task timeout, and an abort signal
 * armed at submit time would count time spent queued; handing it a task only when a thread is free
 * makes a timeout measure the task's own run.
 */
export class Limiter {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly size: number) {}

  /** Resolves `true` when a slot is taken, `false` if `signal` aborts first. */
  acquire(signal?: AbortSignal): Promise<boolean> {
    if (signal?.aborted) return Promise.resolve(false);
    if (this.running < this.size) {
      this.running++;
      return Promise.resolve(true);
    }
    return new Promise((resolve) => {
      const grant = () => {
        signal?.removeEventListener('abort', cancel);
        this.running++;
        resolve(true);
      };
      const cancel = () => {
        const at = this.waiting.indexOf(grant);
        if (at >= 0) this.waiting.splice(at, 1);
        resolve(false);
      };
      this.waiting.push(grant);
      signal?.addEventListener('abort', cancel, { once: true });
    });
  }

  release(): void {
    this.running--;
    this.waiting.shift()?.();
  }
}
