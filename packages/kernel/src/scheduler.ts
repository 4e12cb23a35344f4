/**
 * Pulls work from an (async) iterable with at most `parallel` items in flight. It pulls only when a
 * slot frees, so a million-case stream never sits in memory. `stopped()` is checked before each pull.
 * `work` answers a promise only when it has to wait.
 */
export async function runPool<T>(
  source: AsyncIterable<T> | Iterable<T>,
  parallel: number,
  work: (item: T) => void | Promise<void>,
  stopped: () => boolean,
): Promise<void> {
  const iterator =
    Symbol.asyncIterator in source
      ? source[Symbol.asyncIterator]()
      : toAsync((source as Iterable<T>)[Symbol.iterator]());
  let done = false;
  let failure: unknown;
  // Lanes may ask at once: an async generator queues the requests, and `toAsync` answers each.
  const next = (): Promise<IteratorResult<T>> => iterator.next();

  async function lane(): Promise<void> {
    while (!done && failure === undefined && !stopped()) {
      const step = await next();
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

function toAsync<T>(it: Iterator<T>): AsyncIterator<T> {
  return { next: async () => it.next(), return: async () => it.return?.() ?? { done: true, value: undefined } };
}
