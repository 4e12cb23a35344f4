import { AsyncLocalStorage } from 'node:async_hooks';
import type { RunPlan } from './types/run.js';

/** Who makes a model call: the agent under test, an LLM judge, or a simulated user. */
export type CallRole = 'agent' | 'judge' | 'simulator';

/**
 * The case run a piece of code works for, as the kernel knows it. Boundaries that must tell calls
 * apart by case (the cassette recorder, the usage meter) read it with `currentRun()`; nothing passes
 * it down through agents, tools and connectors.
 */
export interface RunScope {
  readonly plan: RunPlan;
  readonly suite: string;
  readonly caseId: string;
  /** Where the case is written, so that files about it can sit beside it. */
  readonly file: string;
  readonly run: number;
  readonly runs: number;
  /** `judge` while the run's assertions are judged; calls made then are the judges'. */
  role: CallRole;
  /** A multi-turn executor sets the conversation turn it is on; single-turn cases stay at 0. */
  turn: number;
}

const storage = new AsyncLocalStorage<RunScope>();

/** The run the caller works for, or undefined outside any case (suite hooks, reporters). */
export function currentRun(): RunScope | undefined {
  return storage.getStore();
}

/** Runs `fn` (and everything it starts) inside the scope of one case run. */
export function inRunScope<T>(scope: RunScope, fn: () => T): T {
  return storage.run(scope, fn);
}
