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
  done: (runs: Execution[], decision: RunDecision | undefined) => T,
): T | Promise<T> {
  return recorded.length ? replayRun({ runner, testCase, recorded, done }, 1) : done([], undefined);
}

/** One case's replay: an object, and functions of the module rather than closures made per case. */
interface Replay<T> {
  runner: CaseRunner;
  testCase: TestCase;
  recorded: readonly Execution[];
  done: (runs: Execution[], decision: RunDecision | undefined) => T;
}

/** Run n's events, then what follows them. */
function replayRun<T>(replay: Replay<T>, n: number): T | Promise<T> {
  const pending = replayEvents(replay.runner, replay.testCase, n, replay.recorded[n - 1]!);
  return pending ? pending.then(() => afterRun(replay, n)) : afterRun(replay, n);
}

/** After run n's events: the run policy's answer on the runs so far, then the next run or the case's result. */
function afterRun<T>(replay: Replay<T>, n: number): T | Promise<T> {
  const { runner, testCase, recorded } = replay;
  const runs = recorded.slice(0, n);
  const decision = runner.plan.runPolicy?.(testCase, runs, runner.plan.runs);
  return decision?.stop || n === recorded.length ? replay.done(runs, decision) : replayRun(replay, n + 1);
}

/** One recorded run's two events; a promise only when a reporter has to wait. */
function replayEvents(runner: CaseRunner, testCase: TestCase, n: number, execution: Execution): void | Promise<void> {
  const { emit, plan } = runner;
  const started = emit(caseStartEvent(testCase, n, plan.runs));
  if (started) return started.then(() => emit(runResultEvent(testCase, plan.runs, execution)));
  return emit(runResultEvent(testCase, plan.runs, execution));
}
