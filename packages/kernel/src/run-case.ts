import { aggregate, type CaseBase } from './aggregate.js';
import { isThenable } from './call-taps.js';
import { errorMessage } from './errors.js';
import { stopped } from './execute-run.js';
import type { KernelHooks } from './hooks.js';
import { debugLogger } from './debug-log.js';
import { HookLines } from './logs.js';
import { replayCase } from './replay-case.js';
import { runOnce } from './run-once.js';
import { filtered } from './select-cases.js';
import { noteUnasserted } from './unasserted.js';
import type { RunWatch, Watch } from './run-watch.js';
import type { Agent, AgentRef } from './types/agent.js';
import type { PlanContext } from './types/context.js';
import type { CaseResult, Execution } from './types/result.js';
import type { RunDecision, RunEvent, RunPlan } from './types/run.js';
import type { Suite, SuiteLifecycle, TestCase } from './types/test-case.js';

const debug = debugLogger('agentest:kernel');
const DEFAULT_TIMEOUT_MS = 5 * 60_000;

/** What `runCase` needs besides the case: the run's settings and its shared machinery. */
export interface CaseRunner {
  hooks: KernelHooks;
  /** Hands an event to the reporters; a promise only when one of them has to wait. */
  emit: (event: RunEvent) => void | Promise<void>;
  plan: RunPlan;
  suite: Suite;
  agent: Agent | undefined;
  abort: AbortSignal;
  watch: RunWatch;
  context: ReturnType<PlanContext['forAgent']>;
  /** `ExecuteContext.resolveAgent`: one function for the whole run. */
  resolveHelper: (ref: AgentRef) => Promise<Agent>;
}

type Logs = HookLines<'before' | 'after'>;

/**
 * Runs one case: its Before hook, its runs, its After hook. Each run has one deadline (the case's
 * timeout) for everything it does: the first run's deadline also covers the Before hook, the last
 * run's the After hook. An After hook still runs after a timed-out run, as cleanup, under a deadline
 * of its own. A case of one run without hooks answers at once when its run does (see `runOnce`).
 */
export function runCase(runner: CaseRunner, testCase: TestCase): CaseResult | Promise<CaseResult> {
  const { plan, suite, abort } = runner;
  const base = caseBase(testCase);
  if (testCase.skip || testCase.todo) return skipped(base, testCase);
  if (testCase.recordedRuns)
    return replayCase(runner, testCase, testCase.recordedRuns, (runs, decision) =>
      noteUnasserted(caseResult(base, runs, plan, decision), testCase),
    );
  const timeoutMs = testCase.timeoutMs ?? plan.timeoutMs ?? suite.defaultTimeoutMs ?? DEFAULT_TIMEOUT_MS;
  const lifecycle = caseHooks(suite, testCase);
  if (lifecycle || plan.runs !== 1 || abort.aborted) return runAll(runner, testCase, base, timeoutMs, lifecycle);
  return runSingle(runner, testCase, base, timeoutMs);
}

/** The common case: one run, no Before or After. */
function runSingle(
  runner: CaseRunner,
  testCase: TestCase,
  base: CaseBase,
  timeoutMs: number,
): CaseResult | Promise<CaseResult> {
  const { watch } = runner;
  const run = watch.begin(timeoutMs);
  const done = (execution: Execution) => {
    watch.stop(run);
    const runs = [execution];
    return noteUnasserted(caseResult(base, runs, runner.plan, runner.plan.runPolicy?.(testCase, runs, 1)), testCase);
  };
  const failed = (error: unknown) => {
    watch.stop(run);
    throw error;
  };
  let execution: Execution | Promise<Execution>;
  try {
    execution = runOnce(runner, testCase, 1, timeoutMs, run);
  } catch (error) {
    return failed(error);
  }
  return isThenable(execution) ? execution.then(done, failed) : done(execution);
}

/** A case with a Before or an After hook, or several runs. */
async function runAll(
  runner: CaseRunner,
  testCase: TestCase,
  base: CaseBase,
  timeoutMs: number,
  lifecycle: SuiteLifecycle | undefined,
): Promise<CaseResult> {
  const { plan, abort, watch } = runner;
  const hookLogs = lifecycle ? new HookLines<'before' | 'after'>() : undefined;
  let run = watch.begin(timeoutMs);
  try {
    let beforeData: unknown;
    if (lifecycle?.before) {
      try {
        const answer = lifecycle.before(testCase, runner.agent, run.signal, hookLogs?.to('before'));
        beforeData = isThenable(answer) ? await run.race(answer) : answer;
        // A synchronous Before the timer could not interrupt used up the case's deadline.
        if (run.overdue()) return withHookLogs(beforeFailed(base, run, undefined), hookLogs);
      } catch (error) {
        return withHookLogs(beforeFailed(base, run, error), hookLogs);
      }
    }
    const runs: Execution[] = [];
    let decision: RunDecision | undefined;
    for (let n = 1; n <= plan.runs && !decision?.stop; n++) {
      if (abort.aborted) break;
      if (n > 1) run = renew(watch, run, timeoutMs);
      runs.push(await runOnce(runner, testCase, n, timeoutMs, run));
      decision = plan.runPolicy?.(testCase, runs, plan.runs);
    }
    const result = noteUnasserted(caseResult(base, runs, plan, decision), testCase);
    if (lifecycle?.after) {
      if (run.timedOut) run = renew(watch, run, timeoutMs);
      await runAfter(runner, testCase, result, beforeData, run, hookLogs);
    }
    return withHookLogs(result, hookLogs);
  } finally {
    watch.stop(run);
  }
}

/** The runs made into the case's result, with what the run policy's last answer leaves on it. */
function caseResult(base: CaseBase, runs: Execution[], plan: RunPlan, decision: RunDecision | undefined): CaseResult {
  const result = aggregate(base, runs, plan.runs);
  if (result.input == null && runs[0]?.input !== undefined) result.input = runs[0].input;
  if (decision) result.run_policy = policyRecord(runs.length, plan.runs, decision);
  return result;
}

/** The suite's lifecycle when it has a Before or an After for this case. */
function caseHooks(suite: Suite, testCase: TestCase): SuiteLifecycle | undefined {
  const lifecycle = suite.lifecycle;
  if (!lifecycle?.before && !lifecycle?.after) return undefined;
  return lifecycle.hasCaseHooks?.(testCase) === false ? undefined : lifecycle;
}

/**
 * A failed Before makes its case an error and skips its After, as Yao does; a Before stopped at the
 * deadline, or one whose own time limit ran out (a `TimeoutError`), makes it a timeout.
 */
function beforeFailed(base: CaseBase, run: Watch, error: unknown): CaseResult {
  const reason = `before hook failed: ${errorMessage(error)}`;
  const failed = stopped(run, { run: 1 }, reason, run.started, 'in the before hook');
  if ((error as Error | undefined)?.name === 'TimeoutError') failed.status = 'timeout';
  return aggregate(base, [{ ...failed, duration_ms: Math.round(failed.duration_ms * 100) / 100 }], 1);
}

/** A failed After does not change the verdict (Yao only logs it), but it is kept on the case as a warning. */
async function runAfter(
  { suite, agent }: CaseRunner,
  testCase: TestCase,
  result: CaseResult,
  beforeData: unknown,
  run: Watch,
  hookLogs: Logs | undefined,
): Promise<void> {
  try {
    const answer = suite.lifecycle!.after!(testCase, result, beforeData, agent, run.signal, hookLogs?.to('after'));
    if (isThenable(answer)) await run.race(answer);
  } catch (error) {
    debug('after hook failed: %s', errorMessage(error));
    result.warnings = [...(result.warnings ?? []), `after hook failed: ${errorMessage(error)}`];
  }
}

/** Ends one watch and begins the next, for the next run of the same case. */
function renew(watch: RunWatch, run: Watch, timeoutMs: number): Watch {
  watch.stop(run);
  return watch.begin(timeoutMs);
}

/**
 * The selected cases the pool never started (`started`: how many it pulled in the suite's order, or the
 * ids it pulled in a `plan.order`, before a plugin or `--fail-fast` halted the run), each a skipped result
 * saying why it did not run, so every report lists them.
 */
export async function notRunResults(
  suite: Suite,
  plan: RunPlan,
  started: number | ReadonlySet<string>,
  reason: string,
): Promise<CaseResult[]> {
  const results: CaseResult[] = [];
  let seen = 0;
  // By id when `plan.order` ran the cases in another order than the suite's; else the first `started`.
  for await (const testCase of filtered(suite, plan)) {
    if (typeof started === 'number' ? seen++ < started : started.has(testCase.id)) continue;
    results.push({
      ...caseBase(testCase),
      status: 'skipped',
      skip_reason: `not run: ${reason}`,
      duration_ms: 0,
      assertions: [],
      metrics: {},
      runs: [],
    });
  }
  return results;
}

function skipped(base: CaseBase, testCase: TestCase): CaseResult {
  const reason = typeof testCase.skip === 'string' ? { skip_reason: testCase.skip } : {};
  return {
    ...base,
    status: 'skipped',
    duration_ms: 0,
    assertions: [],
    metrics: {},
    runs: [],
    ...reason,
    ...(testCase.todo ? { todo: true } : {}),
  };
}

/** What a run policy's last answer leaves on its case. */
function policyRecord(runs: number, max: number, { decision, reason }: RunDecision): CaseResult['run_policy'] {
  return { runs, max, ...(decision ? { decision } : {}), ...(reason ? { reason } : {}) };
}

function withHookLogs(result: CaseResult, lines: Logs | undefined): CaseResult {
  if (lines?.collected) result.hook_logs = lines.collected;
  return result;
}

/** The fields of a case's result that come from the case itself. */
function caseBase(testCase: TestCase): CaseBase {
  const base: CaseBase = { id: testCase.id, kind: testCase.kind } as CaseBase;
  if (testCase.name) base.name = testCase.name;
  base.input = testCase.input;
  if (testCase.expected !== undefined) base.expected = testCase.expected;
  base.source = testCase.source;
  if (testCase.metadata) base.metadata = testCase.metadata;
  if (testCase.tags?.length) base.tags = testCase.tags;
  return base;
}
