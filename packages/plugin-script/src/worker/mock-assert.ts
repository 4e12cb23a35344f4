import type { AssertionFailure } from './assert.js';
import { cloneable, quotedValue } from './describe.js';
import { calledWith, callText, wantedTimes, type CallLog } from './mock-calls.js';

/**
 * `t.assert.Called`, `NotCalled` and `CalledWith`: checks of what the test called through `Process`,
 * `http`, `time` and its ctx services, mocked or not. Like every `t.assert` method they record a
 * failure and return false instead of throwing; the message says what was called instead.
 *
 * - `Called(name, times?, message?)`: at least once, or exactly `times` (`2` or `{times: 2}`)
 * - `NotCalled(name, message?)`
 * - `CalledWith(name, ...args)`: at least one call had exactly these arguments
 */
export function mockAssertions(
  log: CallLog,
  onFailure: (failure: AssertionFailure) => void,
): Record<string, (...args: unknown[]) => boolean> {
  const checks = new CallChecks(log, onFailure);
  return {
    Called: (name?: unknown, option?: unknown, message?: unknown) => checks.called(name, option, message),
    NotCalled: (name?: unknown, message?: unknown) => checks.notCalled(name, message),
    CalledWith: (name?: unknown, ...args: unknown[]) => checks.calledWith(name, args),
  };
}

class CallChecks {
  constructor(
    private readonly log: CallLog,
    private readonly onFailure: (failure: AssertionFailure) => void,
  ) {}

  called(name: unknown, option: unknown, message: unknown): boolean {
    const selector = this.named('Called', name);
    if (selector === undefined) return false;
    const times = wantedTimes(option);
    if (times !== undefined && typeof times === 'object') return this.fail('Called', { message: times.problem });
    const count = this.log.select(selector).length;
    const custom = typeof option === 'string' ? option : message;
    if (times === undefined)
      return (
        count > 0 ||
        this.fail('Called', { expected: 'at least 1 call', actual: 0, message: `${selector} was not called` }, custom)
      );
    const text = `expected ${selector} to be called ${plural(times)}, it was called ${plural(count)}`;
    return count === times || this.fail('Called', { expected: times, actual: count, message: text }, custom);
  }

  notCalled(name: unknown, message: unknown): boolean {
    const selector = this.named('NotCalled', name);
    if (selector === undefined) return false;
    const count = this.log.select(selector).length;
    const text = `expected ${selector} not to be called, it was called ${plural(count)}`;
    return count === 0 || this.fail('NotCalled', { expected: 0, actual: count, message: text }, message);
  }

  calledWith(name: unknown, args: unknown[]): boolean {
    const selector = this.named('CalledWith', name);
    if (selector === undefined) return false;
    const calls = this.log.select(selector);
    if (calls.some((call) => calledWith(call, args))) return true;
    const wanted = `${selector}(${args.map((arg) => quotedValue(arg)).join(', ')})`;
    const seen = calls.length
      ? `its calls: ${calls.map(callText).join(', ')}`
      : `${selector} was not called; ${this.log.describe()}`;
    this.onFailure({
      type: 'CalledWith',
      expected: cloneable(args),
      actual: cloneable(calls.map((call) => call.args)),
      message: `expected a call ${wanted}; ${seen}`,
    });
    return false;
  }

  /** Records a failure; the message ends with what the test called, unless the test gave its own. */
  private fail(type: string, failure: Omit<AssertionFailure, 'type'>, custom?: unknown): false {
    const message = typeof custom === 'string' ? custom : `${failure.message}; ${this.log.describe()}`;
    this.onFailure({ type, ...failure, message });
    return false;
  }

  private named(type: string, name: unknown): string | undefined {
    if (typeof name === 'string' && name.trim()) return name.trim();
    this.fail(type, { message: `${type} requires a name: a process, "ctx.<service>", "time.Sleep" or "METHOD url"` });
    return undefined;
  }
}

function plural(n: number): string {
  return n === 1 ? '1 time' : `${n} times`;
}
