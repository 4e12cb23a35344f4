/** The reason an aborted signal carries, as something throwable with a message. */
export function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : new Error(typeof reason === 'string' ? reason : 'the call was aborted');
}

/** A timer that ends early, rejecting with the signal's reason, when the call is aborted. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(abortReason(signal));
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortReason(signal));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * A signal of its own for one SDK call, aborted when `signal` is. The SDKs add an abort listener to
 * the signal they are given and never remove it, so a run that makes many calls on one signal (a
 * simulated conversation, judge samples) would pile them up; this one is dropped with its call.
 */
export async function withCallSignal<T>(signal: AbortSignal, call: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const forward = () => controller.abort(signal.reason);
  if (signal.aborted) forward();
  else signal.addEventListener('abort', forward, { once: true });
  try {
    return await call(controller.signal);
  } finally {
    signal.removeEventListener('abort', forward);
  }
}
