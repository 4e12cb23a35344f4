import type { AsyncSeriesHook } from 'tapable';
import { AgentestError, PluginError } from './errors.js';

/**
 * The kernel's dispatch: one helper per kind of hook (bail, series, waterfall, and teardown's
 * "every tap"), in the manner of Rollup's PluginDriver. Taps are registered and ordered by tapable
 * (`stage`, `before`, `register` interceptors); these helpers call them with tapable's semantics and
 * fire the interceptors tapable would (`call` once, `tap` before each tap, `result` with a bail's
 * answer or a waterfall's value, `done` when a hook ends without an answer, `error` on a failure),
 * with two differences that are the reason they exist:
 *
 * - no promise when every tap answers synchronously. The per-case hooks (execute, assert, report)
 *   fire hundreds of thousands of times in a large suite, and a promise per call is then most of
 *   the kernel's cost. A tap's answer is awaited whenever it is a promise, whatever its kind;
 * - a tap that throws or rejects is named: its error becomes a `PluginError {plugin, hook}` (an
 *   `AgentestError` stays as it is), and that is what `error` interceptors and callers see.
 */

/** A tap as tapable stores it: its options (name, stage, our own extras) and its kind and function. */
export type StoredTap = AsyncSeriesHook<unknown>['taps'][number];

/** The interceptor callbacks the dispatch fires (tapable's, less `loop`: no kernel hook loops). */
interface Interceptor {
  call?(...args: any[]): void;
  tap?(tap: any): void;
  result?(result: any): void;
  error?(error: Error): void;
  done?(): void;
}

/** A hook as the dispatch reads it: tapable's public `name`, `taps` and `interceptors`. */
export interface Dispatched {
  readonly name: string | undefined;
  readonly taps: readonly StoredTap[];
  readonly interceptors: readonly Interceptor[];
}

/** Whatever has a `then` is awaited; anything else is a value already. */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    value !== null &&
    (typeof value === 'object' || typeof value === 'function') &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

/**
 * `AsyncSeriesBailHook`: calls the taps in order and answers with the first answer that is not
 * `undefined`, synchronously when the taps so far answered synchronously. A tap that throws throws
 * here; one that rejects rejects the returned promise.
 */
export function callBail<R>(hook: Dispatched, a: unknown, b: unknown): R | undefined | Promise<R | undefined> {
  const { taps, interceptors } = hook;
  if (interceptors.length) fireCall(hook, a, b);
  for (let i = 0; i < taps.length; i++) {
    const tap = taps[i]!;
    let answer: unknown;
    try {
      if (interceptors.length) fireTap(hook, tap);
      answer = invoke(tap, 2, a, b);
    } catch (error) {
      throw failure(hook, tap, error);
    }
    if (isThenable(answer)) return finishBail<R>(hook, answer, i, a, b);
    if (answer !== undefined) return answered(hook, answer as R);
  }
  if (interceptors.length) fireDone(hook);
  return undefined;
}

async function finishBail<R>(
  hook: Dispatched,
  pending: PromiseLike<unknown>,
  at: number,
  a: unknown,
  b: unknown,
): Promise<R | undefined> {
  const { taps, interceptors } = hook;
  let i = at;
  let answer: unknown;
  try {
    answer = await pending;
    while (answer === undefined && ++i < taps.length) {
      if (interceptors.length) fireTap(hook, taps[i]!);
      answer = await invoke(taps[i]!, 2, a, b);
    }
  } catch (error) {
    throw failure(hook, taps[i]!, error);
  }
  if (answer !== undefined) return answered(hook, answer as R);
  if (interceptors.length) fireDone(hook);
  return undefined;
}

/**
 * `AsyncSeriesHook` with one argument: calls every tap in order, waiting only for the taps that
 * answer with a promise. `pick` may name a function a tap carries in its options to be called
 * instead of `fn` (a report tap's `deliver`).
 */
export function callSeries(
  hook: Dispatched,
  a: unknown,
  pick: (tap: StoredTap) => ((a: unknown) => unknown) | undefined = () => undefined,
): void | Promise<void> {
  const { taps, interceptors } = hook;
  if (interceptors.length) fireCall(hook, a);
  for (let i = 0; i < taps.length; i++) {
    const tap = taps[i]!;
    let answer: unknown;
    try {
      if (interceptors.length) fireTap(hook, tap);
      const direct = pick(tap);
      answer = direct ? direct(a) : invoke(tap, 1, a);
    } catch (error) {
      throw failure(hook, tap, error);
    }
    if (isThenable(answer)) return finishSeries(hook, answer, i, a, pick);
  }
  if (interceptors.length) fireDone(hook);
  return undefined;
}

async function finishSeries(
  hook: Dispatched,
  pending: PromiseLike<unknown>,
  at: number,
  a: unknown,
  pick: (tap: StoredTap) => ((a: unknown) => unknown) | undefined,
): Promise<void> {
  const { taps, interceptors } = hook;
  let i = at;
  try {
    await pending;
    while (++i < taps.length) {
      const tap = taps[i]!;
      if (interceptors.length) fireTap(hook, tap);
      const direct = pick(tap);
      const answer = direct ? direct(a) : invoke(tap, 1, a);
      if (isThenable(answer)) await answer;
    }
  } catch (error) {
    throw failure(hook, taps[i]!, error);
  }
  if (interceptors.length) fireDone(hook);
}

/**
 * `AsyncSeriesWaterfallHook`: each tap gets the value the taps before it handed on (and `b`), and
 * hands on what it answers, or the value it got when it answers `undefined`.
 */
export async function callWaterfall<T>(hook: Dispatched, value: T, b: unknown): Promise<T> {
  fireCall(hook, value, b);
  for (const tap of hook.taps) {
    try {
      fireTap(hook, tap);
      const answer = await invoke(tap, 2, value, b);
      if (answer !== undefined) value = answer as T;
    } catch (error) {
      throw failure(hook, tap, error);
    }
  }
  return answered(hook, value);
}

/**
 * `AsyncSeriesHook` without arguments, for cleanup: every tap runs even when an earlier one fails,
 * so one plugin cannot cost the others (the reporters' files) their cleanup. Answers with the
 * failures, in tap order; `done` interceptors fire after the last tap either way.
 */
export async function callEvery(hook: Dispatched): Promise<Error[]> {
  const failures: Error[] = [];
  fireCall(hook);
  for (const tap of hook.taps) {
    try {
      fireTap(hook, tap);
      await invoke(tap, 0);
    } catch (error) {
      failures.push(failure(hook, tap, error));
    }
  }
  fireDone(hook);
  return failures;
}

/**
 * One tap, whatever its kind, with the hook's `arity` arguments (fixed, not spread: this runs for
 * every tap of every case); a callback tap (`tapAsync`) is turned into a promise.
 */
function invoke(tap: StoredTap, arity: 0 | 1 | 2, a?: unknown, b?: unknown): unknown {
  if (tap.type !== 'async') return tap.fn(a, b);
  return new Promise((resolve, reject) => {
    const done = (error: unknown, result: unknown) => (error ? reject(error) : resolve(result));
    if (arity === 2) tap.fn(a, b, done);
    else if (arity === 1) tap.fn(a, done);
    else tap.fn(done);
  });
}

/** The error a tap's failure becomes, named after the tap and the hook; `error` interceptors hear it. */
function failure(hook: Dispatched, tap: StoredTap, error: unknown): Error {
  const named = error instanceof AgentestError ? error : new PluginError(tap.name, hook.name ?? 'unknown', error);
  for (const interceptor of hook.interceptors) interceptor.error?.(named);
  return named;
}

/** `call` interceptors get the hook's arguments, as many as it has. */
function fireCall(hook: Dispatched, ...args: unknown[]): void {
  for (const interceptor of hook.interceptors) interceptor.call?.(...args);
}

function fireTap(hook: Dispatched, tap: StoredTap): void {
  for (const interceptor of hook.interceptors) interceptor.tap?.(tap);
}

function fireDone(hook: Dispatched): void {
  for (const interceptor of hook.interceptors) interceptor.done?.();
}

function answered<R>(hook: Dispatched, answer: R): R {
  for (const interceptor of hook.interceptors) interceptor.result?.(answer);
  return answer;
}
