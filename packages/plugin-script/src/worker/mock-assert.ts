import type { AssertionFailure } from './assert.js';
import { cloneable, formatValue } from './describe.js';
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
  const fail = (type: string, failure: Omit<AssertionFailure, 'type'>, custom?: unknown): false => {
    onFailure({
      type,
      ...failure,
      message: typeof custom === 'string' ? custom : `${failure.message}; ${log.describe()}`,
    });
    return false;
  };
  const named = (type: string, name: unknown): string | undefined => {
    if (typeof name === 'string' && name.trim()) return name.trim();
    fail(type, { message: `${type} requires a name: a process, "ctx.<service>", "time.Sleep" or "METHOD url"` });
    return undefined;
  };
  return {
    Called: (name?: unknown, option?: unknown, message?: unknown) => {
      const selector = named('Called', name);
      if (selector === undefined) return false;
      const times = wantedTimes(option);
      if (times !== undefined && typeof times === 'object') return fail('Called', { message: times.problem });
      const count = log.select(selector).length;
      const custom = typeof option === 'string' ? option : message;
      if (times === undefined)
        return (
          count > 0 ||
          fail('Called', { expected: 'at least 1 call', actual: 0, message: `${selector} was not called` }, custom)
        );
      return (
        count === times ||
        fail(
          'Called',
          {
            expected: times,
            actual: count,
            message: `expected ${selector} to be called ${plural(times)}, it was called ${plural(count)}`,
          },
          custom,
        )
      );
    },
    NotCalled: (name?: unknown, message?: unknown) => {
      const selector = named('NotCalled', name);
      if (selector === undefined) return false;
      const count = log.select(selector).length;
      return (
        count === 0 ||
        fail(
          'NotCalled',
          {
            expected: 0,
            actual: count,
            message: `expected ${selector} not to be called, it was called ${plural(count)}`,
          },
          message,
        )
      );
    },
    CalledWith: (name?: unknown, ...args: unknown[]) => {
      const selector = named('CalledWith', name);
      if (selector === undefined) return false;
      const calls = log.select(selector);
      if (calls.some((call) => calledWith(call, args))) return true;
      const wanted = `${selector}(${args.map((arg) => formatValue(arg)).join(', ')})`;
      const seen = calls.length
        ? `its calls: ${calls.map(callText).join(', ')}`
        : `${selector} was not called; ${log.describe()}`;
      onFailure({
        type: 'CalledWith',
        expected: cloneable(args),
        actual: cloneable(calls.map((call) => call.args)),
        message: `expected a call ${wanted}; ${seen}`,
      });
      return false;
    },
  };
}

function plural(n: number): string {
  return n === 1 ? '1 time' : `${n} times`;
}
