import vm from 'node:vm';
import type { Sandbox } from './sandbox.js';

export type Invocation =
  { kind: 'returned'; value: unknown } | { kind: 'threw'; error: unknown; where?: string } | { kind: 'timeout' };

const CALL = new vm.Script('globalThis.__agentest_fn.apply(undefined, globalThis.__agentest_args)', {
  filename: 'agentest:call',
});
const isVmTimeout = (error: unknown) => (error as { code?: string } | null)?.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT';

/** Runs code in the sandbox with the sync part bounded by `vm`'s own timeout. */
export function runBounded<T>(
  sandbox: Sandbox,
  deadline: number,
  run: (options: vm.RunningScriptOptions) => T,
): Invocation {
  try {
    return { kind: 'returned', value: run({ timeout: remaining(deadline), breakOnSigint: false }) };
  } catch (error) {
    return isVmTimeout(error) ? { kind: 'timeout' } : { kind: 'threw', error };
  }
}

/**
 * Calls `fn(...args)` inside the sandbox. Three layers stop a runaway call: `vm`'s timeout for the
 * synchronous part, a worker timer for a promise that never settles, and (on the main thread) the
 * abort that terminates the worker when a loop after an `await` blocks this thread. Errors raised
 * outside the call's stack (timers, unhandled rejections) end the call as a throw.
 */
export async function invoke(sandbox: Sandbox, fn: unknown, args: unknown[], deadline: number): Promise<Invocation> {
  sandbox.context.__agentest_fn = fn;
  sandbox.context.__agentest_args = args;
  const sync = runBounded(sandbox, deadline, (options) => CALL.runInContext(sandbox.context, options));
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

export function remaining(deadline: number): number {
  return Math.max(1, Math.round(deadline - performance.now()));
}
