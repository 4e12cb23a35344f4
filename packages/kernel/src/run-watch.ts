import { bindRunScope, type RunScope } from './run-scope.js';

/** The longest delay a Node timer holds; a longer one fires after 1 ms. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** One run being watched: its signal, its deadline, and how to end its wait early. */
export interface Watch {
  /** The run's own signal, never shared with another run; made when first asked for. */
  readonly signal: AbortSignal;
  /** Whether the run was stopped (deadline or hard stop), without making its signal. */
  readonly aborted: boolean;
  /** When the watch began (`performance.now()`): its deadline is this plus the timeout. */
  readonly started: number;
  /** Set when the deadline passed (as opposed to a hard stop). */
  readonly timedOut: boolean;
  /** What a run that reaches its deadline is recorded with (`timeout after 30s`). */
  readonly timeoutReason: string;
  /** The case run being watched, while its executor and assertions run (not its Before and After hooks). */
  readonly scope: RunScope | undefined;
  /** Sets or clears that scope; call boundaries find it through the run's signal. */
  enterScope(scope: RunScope | undefined): void;
  /**
   * Waits for an answer (a hook, the executor, the assertions), or rejects with the abort reason at the deadline or
   * hard stop. An answer that comes after the deadline is a timeout too (see `overdue`).
   */
  race<T>(pending: PromiseLike<T>): Promise<T>;
  /**
   * Whether the run's deadline has passed, checked now: the timer cannot fire while a synchronous agent (or
   * hook, or assertion) holds the thread, so a step that answered after its deadline is stopped here, as at
   * its deadline (`timedOut`). Called after each step that answers.
   */
  overdue(): boolean;
}

class Entry implements Watch {
  timedOut = false;
  prev?: Entry;
  next?: Entry;
  reject?: (reason: unknown) => void;
  /** Why the run was stopped, once it was. */
  private reason?: Error;
  private controller?: AbortController;
  scope: RunScope | undefined;

  readonly deadline: number;

  constructor(
    readonly started: number,
    readonly lane: Lane,
  ) {
    this.deadline = started + lane.timeoutMs;
  }

  get timeoutReason(): string {
    return this.lane.reason;
  }

  /**
   * Made on first use: creating an `AbortSignal` costs microseconds in Node 20, more than a fast
   * case's whole run, and a run whose executor and assertions never look at it needs none. A run
   * stopped before anyone asked gets a signal that is already aborted.
   */
  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.reason) this.controller.abort(this.reason);
      if (this.scope) bindRunScope(this.controller.signal, this.scope);
    }
    return this.controller.signal;
  }

  enterScope(scope: RunScope | undefined): void {
    this.scope = scope;
    if (this.controller) bindRunScope(this.controller.signal, scope);
  }

  get aborted(): boolean {
    return this.reason !== undefined;
  }

  race<T>(pending: PromiseLike<T>): Promise<T> {
    if (this.reason) {
      // The answer is no longer awaited; a later rejection of it is not an unhandled one.
      pending.then(undefined, () => undefined);
      return Promise.reject(this.reason);
    }
    return new Promise<T>((resolve, reject) => {
      this.reject = reject;
      // An answer may settle before the timer's turn (an async agent that blocked before it answered).
      pending.then((value) => this.overdue() || resolve(value), reject);
    });
  }

  overdue(): boolean {
    if (this.reason) return this.timedOut;
    if (performance.now() < this.deadline) return false;
    // Left in its lane: `RunWatch#stop` (or the timer) unlinks it.
    this.timedOut = true;
    this.abort(new Error(this.lane.reason));
    return true;
  }

  abort(reason: Error): void {
    if (this.reason) return;
    this.reason = reason;
    this.controller?.abort(reason);
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
 * - a run's signal is made only when something asks for it (see `Entry#signal`). It is never handed
 *   to another run, so a plugin that keeps it can trust that it fires for its own run or not at all.
 *
 * `formatReason` turns a timeout into the reason the run's signal is aborted with.
 */
export class RunWatch {
  private readonly lanes = new Map<number, Lane>();
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
    const lane = this.lane(timeoutMs);
    const entry = new Entry(performance.now(), lane);
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

  dispose(): void {
    this.hardStop.removeEventListener('abort', this.onHardStop);
    clearTimeout(this.timer);
    this.timer = undefined;
    this.armedFor = Infinity;
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
    // Timers fire on whole milliseconds and may run a fraction early: `expire` re-arms if so. A delay past what
    // a timer holds (2^31 - 1 ms, 24.8 days) would fire after 1 ms: it waits the most it can, then re-arms.
    const delay = Math.min(MAX_TIMER_MS, Math.max(1, Math.ceil(at - performance.now())));
    this.timer = setTimeout(() => this.expire(), delay);
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
