import { createAssert, type AssertionFailure } from './assert.js';
import { cloneable, formatArgs } from './describe.js';

export type TestStatus = 'passed' | 'failed' | 'error' | 'timeout' | 'skipped';

/** Thrown by `t.fatal()` to stop the test; recognised by identity, never shown as an exception. */
export class FatalStop {
  constructor(readonly reason: string) {}
}

/** Everything one test records through its `t` object. */
export class TestRecord {
  failed = false;
  skipped = false;
  skipReason?: string;
  readonly errors: string[] = [];
  assertion?: AssertionFailure;
  /** Why a `t.assert.Agent` judge gave no verdict (unreachable, timed out, unreadable, a tie). */
  judgeError?: string;

  constructor(readonly logs: string[]) {}

  fail(message: string): void {
    this.failed = true;
    this.errors.push(message);
  }

  failAssertion(failure: AssertionFailure): void {
    this.fail(`assertion failed: ${failure.message}`);
    this.assertion ??= failure;
  }

  /**
   * The status by Yao's precedence (yao-behaviour §10.5): an exception is `failed` if something
   * already failed, else `error`; a timeout is `timeout`; then `skip()` wins over failures; then the
   * first recorded failure; then `passed`.
   */
  verdict(outcome: { exception?: string; timedOut?: string }): { status: TestStatus; error?: string } {
    if (outcome.timedOut) return { status: 'timeout', error: outcome.timedOut };
    if (outcome.exception !== undefined) {
      return this.failed ? { status: 'failed', error: this.errors[0] } : { status: 'error', error: outcome.exception };
    }
    if (this.skipped) return { status: 'skipped', ...(this.skipReason ? { error: this.skipReason } : {}) };
    if (this.failed) return { status: 'failed', error: this.errors[0] };
    // A judge that gave no verdict is neither a pass nor a failure.
    if (this.judgeError !== undefined) return { status: 'error', error: this.judgeError };
    return { status: 'passed' };
  }
}

/** Asks the main thread to judge a `t.assert.Agent` call; blocks until it answers. */
export type JudgeCall = (args: unknown[]) => { pass: boolean; message?: string; error?: string };

/** What the worker adds to `t` for a test task: `t.mock`, and `t.assert` methods that need the task's runtime. */
export interface TestExtras {
  mock?: object;
  assert?: Record<string, (...args: any[]) => boolean>;
}

/** The script's `t`: `t.assert.*`, `name`, a live `failed`, log/error/skip/fail/fatal, and `main`. */
export function createT(
  name: string,
  record: TestRecord,
  main: unknown,
  judge?: JudgeCall,
  extras: TestExtras = {},
): object {
  const t = {
    name,
    main,
    assert: Object.freeze({
      ...createAssert((failure) => record.failAssertion(failure)),
      ...extras.assert,
      Agent: (...args: unknown[]) => agentAssertion(record, args, judge),
    }),
    ...(extras.mock ? { mock: extras.mock } : {}),
    log: (...args: unknown[]) => void record.logs.push(formatArgs(args)),
    error: (...args: unknown[]) => {
      const text = formatArgs(args) || 'error';
      record.logs.push(`ERROR: ${text}`);
      record.fail(text);
    },
    fail: (reason?: unknown) => record.fail(reason === undefined ? 'test failed' : String(reason)),
    fatal: (reason?: unknown): never => {
      const text = reason === undefined ? 'fatal error' : String(reason);
      record.fail(text);
      throw new FatalStop(text);
    },
    skip: (reason?: unknown) => {
      record.skipped = true;
      record.skipReason = reason === undefined ? undefined : String(reason);
      record.logs.push(`SKIP: ${record.skipReason ?? ''}`.trimEnd());
    },
  };
  Object.defineProperty(t, 'failed', { get: () => record.failed, enumerable: true });
  return Object.freeze(t);
}

/**
 * `t.assert.Agent(response, agentId, opts?)`: a failed verdict is a failed assertion and the test
 * goes on, as in Yao; a judge that gives no verdict marks the test `error` (unless something failed).
 */
function agentAssertion(record: TestRecord, args: unknown[], judge: JudgeCall | undefined): boolean {
  const answer = judge ? judge(args) : { pass: false, error: 't.assert.Agent is available in script tests only' };
  if (answer.pass) return true;
  if (answer.error !== undefined) {
    record.logs.push(`ERROR: ${answer.error}`);
    record.judgeError ??= answer.error;
    return false;
  }
  record.failAssertion({
    type: 'Agent',
    actual: cloneable(args[0]),
    message: answer.message || 'agent assertion failed',
  });
  return false;
}
