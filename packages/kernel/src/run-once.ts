import { isThenable } from './call-taps.js';
import { executeRun, RunContext } from './execute-run.js';
import type { CaseRunner } from './run-case.js';
import type { Watch } from './run-watch.js';
import type { Execution } from './types/result.js';
import type { CaseStartEvent, RunResultEvent } from './types/run.js';
import type { TestCase } from './types/test-case.js';

/**
 * One run: its `case_start` event, the executor and the assertions, its `run_result` event. Each
 * step that answers at once (a reporter that did not have to wait, a synchronous executor and
 * assertions) is followed at once: a run whose steps all do costs no promise, which in a fast suite
 * is a large share of a case's cost. A step that answers with a promise is awaited.
 */
export function runOnce(
  runner: CaseRunner,
  testCase: TestCase,
  run: number,
  timeoutMs: number,
  watch: Watch,
): Execution | Promise<Execution> {
  const pending = runner.emit(caseStartEvent(testCase, run, runner.plan.runs));
  if (pending) return pending.then(() => execute(runner, testCase, run, timeoutMs, watch));
  return execute(runner, testCase, run, timeoutMs, watch);
}

function execute(
  runner: CaseRunner,
  testCase: TestCase,
  run: number,
  timeoutMs: number,
  watch: Watch,
): Execution | Promise<Execution> {
  const { hooks, plan, suite, agent, context, resolveHelper } = runner;
  const ctx = new RunContext(
    plan,
    suite,
    agent,
    context,
    timeoutMs,
    run,
    plan.runs,
    watch,
    resolveHelper,
    hooks,
    testCase,
  );
  // Call boundaries (connectors, cassettes, the usage meter) find the case run through the run's signal.
  watch.enterScope({
    plan,
    suite: suite.name,
    caseId: testCase.id,
    file: testCase.source.file,
    run,
    runs: plan.runs,
    role: 'agent',
    turn: 0,
  });
  let execution: Execution | Promise<Execution>;
  try {
    execution = executeRun(hooks, testCase, ctx, watch);
  } catch (error) {
    watch.enterScope(undefined);
    throw error;
  }
  if (!isThenable(execution)) {
    watch.enterScope(undefined);
    return finish(runner, testCase, execution);
  }
  return execution.then(
    (done) => (watch.enterScope(undefined), finish(runner, testCase, done)),
    (error: unknown) => {
      watch.enterScope(undefined);
      throw error;
    },
  );
}

/** The suite's measures, then the `run_result` event. */
function finish(runner: CaseRunner, testCase: TestCase, execution: Execution): Execution | Promise<Execution> {
  const { plan, suite } = runner;
  if (suite.measure) execution.metrics = suite.measure(execution, testCase);
  const pending = runner.emit(runResultEvent(testCase, plan.runs, execution));
  return pending ? pending.then(() => execution) : execution;
}

/** A run's `case_start` event; its keys in this order (the JSONL report writes it by them). */
export function caseStartEvent(testCase: TestCase, run: number, runs: number): CaseStartEvent {
  return testCase.name
    ? { type: 'case_start', id: testCase.id, name: testCase.name, run, runs }
    : { type: 'case_start', id: testCase.id, run, runs };
}

/** A run's `run_result` event. */
export function runResultEvent(testCase: TestCase, runs: number, execution: Execution): RunResultEvent {
  return testCase.name
    ? { type: 'run_result', id: testCase.id, name: testCase.name, runs, execution }
    : { type: 'run_result', id: testCase.id, runs, execution };
}
