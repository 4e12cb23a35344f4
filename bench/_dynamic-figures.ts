/** What one run of the dynamic bench measured, and what `measure` keeps of its runs. */
import type { ComponentShare } from './_cpu-components.js';
import type { TimeSplit } from './_time-split.js';

export interface Figures {
  wallMs: number;
  /** CPU time of the whole process (runner, connectors and the fake server's thread) during the run. */
  cpuMs: number;
  /** Per thread group, where Linux reports it: on-CPU time and time waiting for a core, in ms. */
  threads?: {
    /** The runner, plugins, connectors, SDK and HTTP client. */
    main: { cpuMs: number; waitMs: number };
    /** The fake server's worker thread. */
    server: { cpuMs: number; waitMs: number };
    /** V8's helpers (garbage collection, compilation) and libuv's pool. */
    helpers: { cpuMs: number; waitMs: number };
  };
  /** The share of the run's wall time the main thread's event loop was busy. */
  mainBusy: number;
  passed: number;
  requests: number;
  turns: number;
  split: TimeSplit;
}

/** What `measure` found: the first runs after one warm-up, the settling runs, and the steady runs. */
export interface Measured {
  /** The median of the steady runs by wall time: the figure the target is judged on. */
  best: Figures;
  runs: Figures[];
  /** The median of the first runs, right after one warm-up, while V8 still compiles the hot code. */
  first: Figures;
  firstRuns: Figures[];
  /** Whole-process CPU per call of each run between the first runs and the steady ones. */
  settling: number[];
  components?: ComponentShare[];
  /** Bytes the main thread allocated per call in one more steady run. */
  allocatedPerCall?: number;
}

export const medianByWall = (runs: Figures[]): Figures =>
  [...runs].sort((a, b) => a.wallMs - b.wallMs)[Math.floor(runs.length / 2)]!;
