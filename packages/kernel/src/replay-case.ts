import { caseStartEvent, runResultEvent } from './run-once.js';
import type { CaseRunner } from './run-case.js';
import type { Execution } from './types/result.js';
import type { RunDecision } from './types/run.js';
import type { TestCase } from './types/test-case.js';

/**
 * A case whose runs an earlier run recorded (`TestCase.recordedRuns`, as `agentest merge` replays the
 * shards): each run's `case_start` and `run_result` events as a live run sends them, and the run
 * policy asked after each run, but nothing a live run needs to make a run (no executor, assertions,
 * measures, deadline or call scope). `done` folds the runs into the case's result, as for a live case.
 * It answers at once unless a reporter has to wait.
 */
export function replayCase<T>(
  runner: CaseRunner,
  testCase: TestCase,
  recorded: readonly Execution[],
  done: Done<T>,
): T | Promise<T> {
  return recorded.length ? replayRun(runner, testCase, recorded, 1, done) : done([], undefined);
}

type Done<T> = (runs: Execution[], decision: RunDecision | undefined) => T;

// Functions of the module, not closures made per case: a merge replays 100k cases in a row.

/** Run n's events, then what follows them. */
function replayRun<T>(
  runner: CaseRunner,
  testCase: TestCase,
  recorded: readonly Execution[],
  n: number,
  done: Done<T>,
): T | Promise<T> {
  const pending = replayEvents(runner, testCase, n, recorded[n - 1]!);
  return pending
    ? pending.then(() => afterRun(runner, testCase, recorded, n, done))
    : afterRun(runner, testCase, recorded, n, done);
}

/** After run n's events: the run policy's answer on the runs so far, then the next run or the case's result. */
function afterRun<T>(
  runner: CaseRunner,
  testCase: TestCase,
  recorded: readonly Execution[],
  n: number,
  done: Done<T>,
): T | Promise<T> {
  const { plan } = runner;
  const runs = recorded.slice(0, n);
  const decision = plan.runPolicy?.(testCase, runs, plan.runs);
  return decision?.stop || n === recorded.length
    ? done(runs, decision)
    : replayRun(runner, testCase, recorded, n + 1, done);
}

/** One recorded run's two events; a promise only when a reporter has to wait. */
function replayEvents(runner: CaseRunner, testCase: TestCase, n: number, execution: Execution): void | Promise<void> {
  const { emit, plan } = runner;
  const started = emit(caseStartEvent(testCase, n, plan.runs));
  if (started) return started.then(() => emit(runResultEvent(testCase, plan.runs, execution)));
  return emit(runResultEvent(testCase, plan.runs, execution));
}
