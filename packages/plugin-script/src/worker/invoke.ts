import vm from 'node:vm';
import { remaining, runBounded, type Invocation } from './deadline.js';
import type { Sandbox } from './sandbox.js';

const CALL = new vm.Script('globalThis.__agentest_fn.apply(undefined, globalThis.__agentest_args)', {
  filename: 'agentest:call',
});

/**
 * Calls `fn(...args)` inside the sandbox. Three layers stop a runaway call: `vm`'s timeout for the
 * synchronous part, a worker timer for a promise that never settles, and (on the main thread) the
 * abort that terminates the worker when a loop after an `await` blocks this thread. Errors raised
 * outside the call's stack (timers, unhandled rejections) end the call as a throw.
 */
export async function invoke(sandbox: Sandbox, fn: unknown, args: unknown[], deadline: number): Promise<Invocation> {
  sandbox.context.__agentest_fn = fn;
  sandbox.context.__agentest_args = args;
  const sync = runBounded(deadline, (options) => CALL.runInContext(sandbox.context, options));
  if (sync.kind !== 'returned') return sync;
  let outcome: Invocation = sync;
  const value = sync.value as PromiseLike<unknown> | undefined;
  if (value && typeof value.then === 'function') {
    let timer: ReturnType<typeof setTimeout> | undefined;
    outcome = await Promise.race([
      Promise.resolve(value).then(
        (v): Invocation => ({ kind: 'returned', value: v }),
        (error): Invocation => ({ kind: 'threw', error }),
      ),
      new Promise<Invocation>(
        (resolve) => (timer = setTimeout(() => resolve({ kind: 'timeout' }), remaining(deadline))),
      ),
      sandbox.whenAsyncError().then((): Invocation => ({ kind: 'returned', value: undefined })),
    ]);
    clearTimeout(timer);
  }
  // Rejections nobody handled are reported one macrotask later; wait for them to be blamed here.
  await new Promise((resolve) => setImmediate(resolve));
  if (outcome.kind !== 'timeout' && sandbox.asyncError)
    return { kind: 'threw', error: sandbox.asyncError.error, where: sandbox.asyncError.where };
  return outcome;
}
