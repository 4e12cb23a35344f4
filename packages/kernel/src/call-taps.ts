import type { Tap } from 'tapable';

/** A tap as tapable stores it: its kind and the (already attributed) function. */
export type StoredTap = Tap & { type: string; fn: (...args: any[]) => any };

/** Whatever has a `then` is awaited; anything else is a value already. */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    value !== null &&
    (typeof value === 'object' || typeof value === 'function') &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

/**
 * Calls a bail hook's taps in order and returns the first answer that is not `undefined`, as
 * `AsyncSeriesBailHook#promise` does, but without a promise when every tap answers synchronously.
 * The per-case hooks (execute, assert, report) are fired hundreds of thousands of times in a large
 * suite, and a promise chain per call is then most of the kernel's cost. A tap that throws throws
 * here; one that rejects rejects the returned promise.
 */
export function callBail<R>(taps: readonly Tap[], a: unknown, b: unknown): R | undefined | Promise<R | undefined> {
  for (let i = 0; i < taps.length; i++) {
    const answer = invoke(taps[i] as StoredTap, a, b);
    if (isThenable(answer)) return finishBail<R>(answer as PromiseLike<R | undefined>, taps, i + 1, a, b);
    if (answer !== undefined) return answer as R;
  }
  return undefined;
}

async function finishBail<R>(
  pending: PromiseLike<R | undefined>,
  taps: readonly Tap[],
  from: number,
  a: unknown,
  b: unknown,
): Promise<R | undefined> {
  const first = await pending;
  if (first !== undefined) return first;
  for (let i = from; i < taps.length; i++) {
    const answer = await invoke(taps[i] as StoredTap, a, b);
    if (answer !== undefined) return answer as R;
  }
  return undefined;
}

/** Calls every tap in order (`AsyncSeriesHook`), awaiting only the taps that answer with a promise. */
export function callSeries(
  taps: readonly Tap[],
  a: unknown,
  pick: (tap: StoredTap) => ((a: unknown) => unknown) | undefined = () => undefined,
): void | Promise<void> {
  for (let i = 0; i < taps.length; i++) {
    const tap = taps[i] as StoredTap;
    const direct = pick(tap);
    const answer = direct ? direct(a) : invoke(tap, a, undefined, 1);
    if (isThenable(answer)) return finishSeries(answer, taps, i + 1, a, pick);
  }
  return undefined;
}

async function finishSeries(
  pending: PromiseLike<unknown>,
  taps: readonly Tap[],
  from: number,
  a: unknown,
  pick: (tap: StoredTap) => ((a: unknown) => unknown) | undefined,
): Promise<void> {
  await pending;
  for (let i = from; i < taps.length; i++) {
    const tap = taps[i] as StoredTap;
    const direct = pick(tap);
    const answer = direct ? direct(a) : invoke(tap, a, undefined, 1);
    if (isThenable(answer)) await answer;
  }
}

/** One tap, whatever its kind; a callback tap (`tapAsync`) is turned into a promise. */
function invoke(tap: StoredTap, a: unknown, b: unknown, arity = 2): unknown {
  if (tap.type !== 'async') return arity === 1 ? tap.fn(a) : tap.fn(a, b);
  return new Promise((resolve, reject) => {
    const done = (error: unknown, result: unknown) => (error ? reject(error) : resolve(result));
    if (arity === 1) tap.fn(a, done);
    else tap.fn(a, b, done);
  });
}
