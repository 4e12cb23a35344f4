import { abortReason } from './abort.js';

/**
 * Bounds the calls in flight through one connector. Waiters are served in arrival order; a waiter
 * whose call is aborted leaves the queue without taking a slot.
 */
export class Semaphore {
  private active = 0;
  private readonly waiters: { grant: () => void }[] = [];

  constructor(private max: number) {}

  get limit(): number {
    return this.max;
  }

  /** A raised limit lets waiters in at once. */
  set limit(value: number) {
    this.max = value;
    this.drain();
  }

  get inFlight(): number {
    return this.active;
  }

  async use<T>(work: () => Promise<T>, signal: AbortSignal): Promise<T> {
    // A free slot is taken at once, without waiting a turn of the microtask queue for it.
    if (signal.aborted || this.active >= this.max) await this.acquire(signal);
    else this.active++;
    try {
      return await work();
    } finally {
      this.release();
    }
  }

  private acquire(signal: AbortSignal): Promise<void> {
    if (signal.aborted) return Promise.reject(abortReason(signal));
    if (this.active < this.max) {
      this.active++;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const waiter = {
        grant: () => {
          signal.removeEventListener('abort', onAbort);
          this.active++;
          resolve();
        },
      };
      const onAbort = () => {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        reject(abortReason(signal));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(waiter);
    });
  }

  private release(): void {
    this.active--;
    this.drain();
  }

  private drain(): void {
    while (this.active < this.max && this.waiters.length) this.waiters.shift()!.grant();
  }
}

const byConnector = new Map<string, Semaphore>();

/** The one semaphore of a connector id, shared by every client built for that id; the latest limit wins. */
export function connectorSemaphore(id: string, limit: number): Semaphore {
  let semaphore = byConnector.get(id);
  if (!semaphore) byConnector.set(id, (semaphore = new Semaphore(limit)));
  semaphore.limit = limit;
  return semaphore;
}
