import type vm from 'node:vm';

/** How a call into the sandbox ended. */
export type Invocation =
  { kind: 'returned'; value: unknown } | { kind: 'threw'; error: unknown; where?: string } | { kind: 'timeout' };

const isVmTimeout = (error: unknown) => (error as { code?: string } | null)?.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT';

/** Milliseconds left before `deadline` (a `performance.now()` time), at least 1 so a timer still fires. */
export function remaining(deadline: number): number {
  return Math.max(1, Math.round(deadline - performance.now()));
}

/** Runs code in a sandbox with the sync part bounded by `vm`'s own timeout, set to what is left before `deadline`. */
export function runBounded<T>(deadline: number, run: (options: vm.RunningScriptOptions) => T): Invocation {
  try {
    return { kind: 'returned', value: run({ timeout: remaining(deadline), breakOnSigint: false }) };
  } catch (error) {
    return isVmTimeout(error) ? { kind: 'timeout' } : { kind: 'threw', error };
  }
}
