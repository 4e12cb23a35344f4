import { remaining } from './deadline.js';

/** One cell to block on: nobody ever notifies it, so `Atomics.wait` is a plain synchronous sleep. */
const sleeper = new Int32Array(new SharedArrayBuffer(4));

/**
 * Yao's `time` global (gou `runtime/v8/objects/time`). `Sleep(ms)` blocks the script, as it does in
 * Yao, but never past the caller's time limit: a sleep that would outlast it ends at the limit and
 * throws, so the call reports why it ran out of time instead of hanging. `After(ms, process, ...args)`
 * starts a process in the background on a Yao server and only logs what it did; a test run has no
 * background to run it in, so the call is recorded in the logs and nothing runs.
 */
export function yaoTime(logs: string[], deadline: number): Readonly<Record<string, (...args: unknown[]) => null>> {
  return Object.freeze({
    Sleep(ms?: unknown): null {
      if (ms === undefined) throw new Error('time.Sleep: Missing parameters');
      const wanted = Math.max(0, Math.trunc(Number(ms)) || 0);
      if (wanted === 0) return null;
      const left = remaining(deadline);
      if (wanted > left) {
        Atomics.wait(sleeper, 0, 0, left);
        throw new Error(`time.Sleep(${wanted}) outlasts the time limit of this call (${left} ms were left)`);
      }
      Atomics.wait(sleeper, 0, 0, wanted);
      return null;
    },
    After(ms?: unknown, name?: unknown, ...args: unknown[]): null {
      if (ms === undefined || name === undefined) throw new Error('time.After: Missing parameters');
      logs.push(
        `time.After ${Math.trunc(Number(ms)) || 0}ms: ${String(name)}${args.length ? ` ${JSON.stringify(args)}` : ''} (not run: background processes need a running Yao)`,
      );
      return null;
    },
  });
}
