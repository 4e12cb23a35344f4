import type { AgentestPlugin, Kernel, RunOutcome, RunPlan } from '@agentest/kernel';
import type { NormalisedConfig } from '../config/normalise-config.js';

/**
 * One set-up of `agentest test` (config, kernel, reporters, plan) that the watch loop runs again and
 * again. A changed config ends it, and the loop sets up a new one.
 */
export interface WatchSession {
  kernel: Kernel;
  plan: RunPlan;
  config: Pick<NormalisedConfig, 'file' | 'bases' | 'dir' | 'cassettes'>;
  /** The files the reporters write: a change there is the run's own. */
  outputs: readonly string[];
  /** Prints what a run's outcome adds to the reports (baseline comparison, errors) and answers its exit code. */
  report(outcome: RunOutcome): number;
}

/** What `runTest` hands a set-up to instead of running it once. */
export interface WatchServer {
  /** Plugins the session needs in its kernel (the one that records each case's outcome). */
  plugins: AgentestPlugin[];
  /** Runs the session until the user quits or the config changes; answers the last run's exit code. */
  serve(session: WatchSession): Promise<number>;
}
