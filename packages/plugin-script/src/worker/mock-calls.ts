import { cloneable, quotedValue, thrownMessage } from './describe.js';
import { deepEqual } from './equal.js';
import { httpMatcher, type HttpMatcher } from './mock-http.js';

/** What one call of a `Process`, `http`, `time` or ctx service did, in the order the calls were made. */
export interface RecordedCall {
  /** `models.user.Find`, `GET https://api.example.com/users`, `time.Sleep`, `ctx.Send`. */
  name: string;
  kind: 'process' | 'http' | 'time' | 'ctx';
  args: unknown[];
  /** 1 for the test's first recorded call, then 2, 3… across every kind. */
  order: number;
  /** Whether a `t.mock` answered it (the rest ran as they do without mocks). */
  mocked: boolean;
  returned?: unknown;
  threw?: string;
}

/** How many calls the failure message lists when it says what was called instead. */
const SHOWN_CALLS = 10;

/**
 * Every call a test makes to the Yao runtime (`Process`, `http`, `time`) and to its ctx services,
 * mocked or not, so `t.assert.Called(...)` can check them and say what was called instead.
 */
export class CallLog {
  readonly calls: RecordedCall[] = [];

  /** Runs `run` and records the call with what it returned or threw (the throw goes on to the script). */
  record<T>(kind: RecordedCall['kind'], name: string, args: unknown[], mocked: boolean, run: () => T): T {
    const call: RecordedCall = { name, kind, args: cloneable(args) as unknown[], order: this.calls.length + 1, mocked };
    this.calls.push(call);
    try {
      const value = run();
      call.returned = cloneable(value);
      return value;
    } catch (error) {
      call.threw = thrownMessage(error);
      throw error;
    }
  }

  /** The calls `selector` names: a process or service name (any case), or an http matcher such as `POST https://…`. */
  select(selector: string): RecordedCall[] {
    const http = httpSelector(selector);
    if (http) return this.selectHttp(http);
    const wanted = selector.toLowerCase();
    return this.calls.filter((call) => call.name.toLowerCase() === wanted);
  }

  /** The http calls a matcher selects. */
  selectHttp(matcher: HttpMatcher): RecordedCall[] {
    return this.calls.filter((call) => call.kind === 'http' && matcher.matches(requestOf(call)));
  }

  /** "models.user.Find(1), GET https://x (…)": what the test called, for failure messages. */
  describe(): string {
    if (!this.calls.length) return 'nothing was called';
    const shown = this.calls.slice(0, SHOWN_CALLS).map(callText).join(', ');
    const more = this.calls.length > SHOWN_CALLS ? ` and ${this.calls.length - SHOWN_CALLS} more` : '';
    return `calls made: ${shown}${more}`;
  }
}

export function callText(call: RecordedCall): string {
  if (call.kind === 'http') return call.name;
  return `${call.name}(${call.args.map((arg) => quotedValue(arg)).join(', ')})`;
}

/** A selector is an http matcher when it has a method before a URL, or a URL scheme. */
function httpSelector(selector: string): HttpMatcher | undefined {
  if (!/^[A-Za-z]+\s+\S|:\/\//.test(selector)) return undefined;
  try {
    return httpMatcher(selector);
  } catch {
    return undefined;
  }
}

/** An http call's name is `METHOD url`; the matcher reads it back. */
function requestOf(call: RecordedCall): { method: string; url: string } {
  const space = call.name.indexOf(' ');
  return { method: call.name.slice(0, space), url: call.name.slice(space + 1) };
}

/** `Called(name, {times: 2})` or `Called(name, 2)`: the exact count wanted, if any. */
export function wantedTimes(option: unknown): number | undefined | { problem: string } {
  if (option === undefined || typeof option === 'string') return undefined;
  const times = typeof option === 'number' ? option : (option as { times?: unknown } | null)?.times;
  if (times === undefined && option !== null && typeof option === 'object') return undefined;
  if (typeof times !== 'number' || !Number.isInteger(times) || times < 0)
    return { problem: `Called: times must be a whole number of calls, got ${quotedValue(times ?? option)}` };
  return times;
}

/** Whether one recorded call had these arguments (deep equality, as `t.assert.Equal`). */
export function calledWith(call: RecordedCall, args: unknown[]): boolean {
  return deepEqual(call.args, cloneable(args));
}
