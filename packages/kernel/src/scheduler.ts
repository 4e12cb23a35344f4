import { isThenable } from './call-taps.js';

/**
 * Pulls work from an (async) iterable with at most `parallel` items in flight. It pulls only when a
 * slot frees, so a million-case stream never sits in memory. `stopped()` is checked before each pull.
 * `work` answers a promise only when it has to wait; a plain iterable is pulled without one, so a
 * case that answers at once (a replayed one) costs the pool no promise at all.
 */
export async function runPool<T>(
  source: AsyncIterable<T> | Iterable<T>,
  parallel: number,
  work: (item: T) => void | Promise<void>,
  stopped: () => boolean,
): Promise<void> {
  const iterator: AsyncIterator<T> | Iterator<T> =
    Symbol.asyncIterator in source ? source[Symbol.asyncIterator]() : (source as Iterable<T>)[Symbol.iterator]();
  let done = false;
  let failure: unknown;

  async function lane(): Promise<void> {
    while (!done && failure === undefined && !stopped()) {
      // Lanes may ask at once: an async generator queues the requests; a plain iterator answers each in turn.
      const next = iterator.next();
      const step = isThenable(next) ? await next : next;
      if (step.done) {
        done = true;
        return;
      }
      try {
        // Work that ends at once answers nothing to wait for.
        const pending = work(step.value);
        if (pending) await pending;
      } catch (error) {
        failure ??= error;
      }
    }
  }

  await Promise.all(Array.from({ length: Math.max(1, parallel) }, lane));
  if (!done) await iterator.return?.();
  if (failure !== undefined) throw failure;
}
