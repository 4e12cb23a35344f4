import type { Profiler } from 'node:inspector';

/** What a worker answers for one script: V8's own shape, as `Profiler.takePreciseCoverage` gives it. */
export type ScriptCoverage = Pick<Profiler.ScriptCoverage, 'url' | 'functions'>;

/** The task the pool sends each thread to take its coverage (see `takeCoverage` in the worker). */
export interface CoverageTask {
  mode: 'coverage';
  /** One shared counter: how many threads have arrived. */
  barrier: Int32Array;
  threads: number;
  /** How long a thread waits for the others before it answers anyway. */
  waitMs: number;
}

/** A thread whose heap filled up under coverage: its counts, and the thread the pool should replace. */
export interface Retirement {
  threadId: number;
  coverage: ScriptCoverage[];
}

/** The suffix of every compiled bundle's name (see `compileModule`): only these scripts are the user's. */
export const BUNDLE_SUFFIX = '.agentest-bundle.js';

export function isBundleUrl(url: string): boolean {
  return url.endsWith(BUNDLE_SUFFIX);
}
