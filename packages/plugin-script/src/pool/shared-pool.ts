import { LazyScriptPool } from './lazy-pool.js';
import type { ScriptPool, ScriptPoolOptions } from './types.js';

const shared = new Map<string, { pool: ScriptPool; refs: number }>();
/** While above zero, a pool whose last holder releases it stays open for the next run (`--watch`). */
let warmHolds = 0;

/** A pool of your own; close it when done. Prefer `acquireScriptPool` inside plugins. */
export function createScriptPool(options: ScriptPoolOptions = {}): ScriptPool {
  return new LazyScriptPool(options);
}

/**
 * One shared pool per process and option set, counted by reference: the script plugin, the assistant
 * plugin (hook scripts) and the kit plugin (`test()` files) all run in the same threads. The pool
 * starts its threads on first use and closes when the last holder releases it.
 */
export function acquireScriptPool(options: ScriptPoolOptions = {}): { pool: ScriptPool; release(): Promise<void> } {
  const key = JSON.stringify({
    maxThreads: options.maxThreads,
    memoryLimitMb: options.memoryLimitMb,
    env: [...new Set(options.env ?? [])].sort(),
  });
  let entry = shared.get(key);
  if (!entry) {
    entry = { pool: new LazyScriptPool(options), refs: 0 };
    shared.set(key, entry);
  }
  entry.refs++;
  const held = entry;
  let released = false;
  return {
    pool: held.pool,
    async release() {
      if (released) return;
      released = true;
      if (--held.refs > 0 || warmHolds > 0) return;
      if (shared.get(key) === held) shared.delete(key);
      await held.pool.close();
    },
  };
}

/**
 * Keeps the shared pools open between runs until the returned function is called: a process that runs
 * the same suite again and again (`agentest test --watch`) reuses warm threads instead of starting new
 * ones each time. Pools nobody holds any more close when the last keeper lets go.
 */
export function keepScriptPoolsWarm(): () => Promise<void> {
  warmHolds++;
  let done = false;
  return async () => {
    if (done) return;
    done = true;
    if (--warmHolds > 0) return;
    const idle = [...shared].filter(([, entry]) => entry.refs === 0);
    for (const [key] of idle) shared.delete(key);
    await Promise.all(idle.map(([, entry]) => entry.pool.close()));
  };
}
