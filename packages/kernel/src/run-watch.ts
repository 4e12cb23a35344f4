import { getEventListeners } from 'node:events';

/** Signals kept for reuse; more than enough for any `--parallel`. */
const POOL_LIMIT = 256;

/** One run being watched: its signal, its deadline, and how to end its wait early. */
export interface Watch {
  readonly signal: AbortSignal;
  /** When the watch began (`performance.now()`): its deadline is this plus the timeout. */
  readonly started: number;
  /** Set when the deadline passed (as opposed to a hard stop). */
  readonly timedOut: boolean;
  /** Waits for an answer (a hook, the executor, the assertions), or rejects with the abort reason at the deadline or hard stop. */
  race<T>(pending: PromiseLike<T>): Promise<T>;
}

class Entry implements Watch {
  timedOut = false;
  prev?: Entry;
  next?: Entry;
  reject?: (reason: unknown) => void;

  readonly deadline: number;

  constructor(
    readonly controller: AbortController,
    readonly signal: AbortSignal,
    readonly started: number,
    readonly lane: Lane,
  ) {
    this.deadline = started + lane.timeoutMs;
  }

  race<T>(pending: PromiseLike<T>): Promise<T> {
    if (this.signal.aborted) {
      // The answer is no longer awaited; a later rejection of it is not an unhandled one.
      pending.then(undefined, () => undefined);
      return Promise.reject(this.signal.reason);
    }
    return new Promise<T>((resolve, reject) => {
      this.reject = reject;
      pending.then(resolve, reject);
    });
  }

  abort(reason: Error): void {
    this.controller.abort(reason);
    this.reject?.(reason);
  }
}

/** The runs sharing one timeout, in start order, which is also deadline order. */
interface Lane {
  timeoutMs: number;
  reason: string;
  head?: Entry;
  tail?: Entry;
}

/**
 * Enforces every running case's timeout and the hard stop for one kernel run. Cheaper than a timer,
 * an abort listener and an `AbortController` per run, which cost more than a fast case itself:
 *
 * - one timer serves every running case: runs with the same timeout end their wait in start order,
 *   so each timeout keeps a list and the timer is armed for the earliest head;
 * - one listener on the hard-stop signal aborts every running case;
 * - a run's signal is reused by a later run when it ended without firing and with no listener left
 *   on it (creating an `AbortSignal` takes microseconds in Node).
 *
 * `formatReason` turns a timeout into the reason the run's signal is aborted with.
 */
export class RunWatch {
  private readonly lanes = new Map<number, Lane>();
  private readonly pool: AbortController[] = [];
  private timer?: NodeJS.Timeout;
  private armedFor = Infinity;
  private readonly onHardStop = () => this.abortAll();

  constructor(
    private readonly hardStop: AbortSignal,
    private readonly formatReason: (timeoutMs: number) => string,
  ) {
    hardStop.addEventListener('abort', this.onHardStop, { once: true });
  }

  /** Starts watching one run. */
  begin(timeoutMs: number): Watch {
    const controller = this.pool.pop() ?? new AbortController();
    const lane = this.lane(timeoutMs);
    const entry = new Entry(controller, controller.signal, performance.now(), lane);
    if (lane.tail) {
      lane.tail.next = entry;
      entry.prev = lane.tail;
    } else lane.head = entry;
    lane.tail = entry;
    if (entry.deadline < this.armedFor) this.arm(entry.deadline);
    if (this.hardStop.aborted) entry.abort(new Error('run interrupted'));
    return entry;
  }

  /** The run (its hooks, executor and assertions) is done: its deadline and the hard stop no longer apply to it. */
  stop(watch: Watch): void {
    const entry = watch as Entry;
    entry.reject = undefined;
    this.unlink(entry);
  }

  private unlink(entry: Entry): void {
    const lane = entry.lane;
    if (entry.prev) entry.prev.next = entry.next;
    else if (lane.head === entry) lane.head = entry.next;
    if (entry.next) entry.next.prev = entry.prev;
    else if (lane.tail === entry) lane.tail = entry.prev;
    entry.prev = entry.next = undefined;
  }

  /** Everything that used the run's signal is done (hooks and assertions included): it may serve another run. */
  release(watch: Watch): void {
    const signal = watch.signal;
    if (signal.aborted || this.pool.length >= POOL_LIMIT || getEventListeners(signal, 'abort').length) return;
    this.pool.push((watch as Entry).controller);
  }

  dispose(): void {
    this.hardStop.removeEventListener('abort', this.onHardStop);
    clearTimeout(this.timer);
    this.timer = undefined;
    this.armedFor = Infinity;
    this.pool.length = 0;
  }

  private lane(timeoutMs: number): Lane {
    let lane = this.lanes.get(timeoutMs);
    if (!lane) {
      lane = { timeoutMs, reason: this.formatReason(timeoutMs) };
      this.lanes.set(timeoutMs, lane);
    }
    return lane;
  }

  private arm(at: number): void {
    clearTimeout(this.timer);
    this.armedFor = at;
    // Timers fire on whole milliseconds and may run a fraction early: `expire` re-arms if so.
    this.timer = setTimeout(() => this.expire(), Math.max(1, Math.ceil(at - performance.now())));
  }

  private expire(): void {
    this.timer = undefined;
    this.armedFor = Infinity;
    const now = performance.now();
    let next = Infinity;
    for (const lane of this.lanes.values()) {
      while (lane.head && lane.head.deadline <= now) {
        const entry = lane.head;
        this.unlink(entry);
        entry.timedOut = true;
        entry.abort(new Error(lane.reason));
      }
      if (lane.head && lane.head.deadline < next) next = lane.head.deadline;
    }
    if (next !== Infinity) this.arm(next);
  }

  private abortAll(): void {
    for (const lane of this.lanes.values()) {
      while (lane.head) {
        const entry = lane.head;
        this.unlink(entry);
        entry.abort(new Error('run interrupted'));
      }
    }
  }
}
