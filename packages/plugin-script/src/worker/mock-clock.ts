import vm from 'node:vm';
import { quotedValue } from './describe.js';

/**
 * The clock of `t.mock.time(start?, {step?})`. It stands still (or moves `step` ms on every read)
 * and moves only when the test says so or a script sleeps: `time.Sleep(ms)` moves it by `ms` and
 * returns at once, so a test of a retry loop neither waits nor depends on the machine's speed.
 */
export class MockClock {
  private now: number;
  private readonly step: number;

  constructor(start: unknown, options: unknown) {
    this.now = start === undefined ? Date.now() : instant(start, 't.mock.time');
    const step = (options as { step?: unknown } | undefined)?.step ?? 0;
    if (typeof step !== 'number' || !Number.isFinite(step) || step < 0)
      throw new TypeError(`t.mock.time: "step" must be a number of milliseconds (0 or more), got ${quotedValue(step)}`);
    this.step = step;
  }

  /** The mocked time in ms since the epoch; with `step`, each read moves the clock on. */
  read(): number {
    const value = this.now;
    this.now += this.step;
    return value;
  }

  advance(ms: unknown): number {
    const by = Number(ms);
    if (!Number.isFinite(by) || by < 0)
      throw new TypeError(
        `clock.Add: the time to add must be a number of milliseconds (0 or more), got ${quotedValue(ms)}`,
      );
    this.now += by;
    return this.now;
  }

  set(time: unknown): number {
    this.now = instant(time, 'clock.Set');
    return this.now;
  }

  /** What the test holds: `Now()`, `Add(ms)` and `Set(time)`, in the style of Yao's globals. */
  handle(): Readonly<Record<string, (arg?: unknown) => number>> {
    return Object.freeze({
      Now: () => this.now,
      Add: (ms?: unknown) => this.advance(ms),
      Set: (time?: unknown) => this.set(time),
    });
  }
}

/** A number of ms, an ISO date string or a Date, as ms since the epoch. */
function instant(value: unknown, where: string): number {
  const ms =
    typeof value === 'number'
      ? value
      : typeof value === 'string'
        ? Date.parse(value)
        : Object.prototype.toString.call(value) === '[object Date]'
          ? (value as Date).getTime()
          : NaN;
  if (!Number.isFinite(ms))
    throw new TypeError(
      `${where}: the time must be ms since the epoch, an ISO date or a Date; got ${quotedValue(value)}`,
    );
  return ms;
}

/**
 * Replaces `Date` in a sandbox's context with one that reads `clock` when it is set: `new Date()`,
 * `Date()` and `Date.now()` give the mocked time; dates built from arguments are untouched, and every
 * date is still an instance of the context's own `Date`.
 */
export function installMockDate(context: vm.Context, clock: () => MockClock | undefined): void {
  const Real = vm.runInContext('Date', context) as DateConstructor;
  const now = () => clock()?.read() ?? Real.now();
  function MockDate(this: unknown, ...args: unknown[]): unknown {
    if (!new.target) return new Real(now()).toString();
    return Reflect.construct(Real, args.length ? args : [now()], new.target);
  }
  Object.setPrototypeOf(MockDate, Real);
  Object.defineProperties(MockDate, {
    prototype: { value: Real.prototype },
    now: { value: now, writable: true, configurable: true },
  });
  (context as Record<string, unknown>).Date = MockDate;
}
