import { assertAll, failureOf } from './assert-case.js';
import { AgentestError, errorMessage } from './errors.js';
import type { AssertInput, ExecuteContext, KernelHooks } from './hooks.js';
import { addJudgeUsage } from './judge-usage.js';
import type { Agent, AgentRef } from './types/agent.js';
import type { PlanContext, TestContext } from './types/context.js';
import type { AssertionResult, Execution } from './types/result.js';
import type { RunPlan } from './types/run.js';
import type { Assertion, Suite, TestCase } from './types/test-case.js';
import { callBail, isThenable } from './call-taps.js';
import type { Watch } from './run-watch.js';

/**
 * One run of one case: the executor for its kind, then its assertions, all under the run's deadline
 * (`run`, begun by the caller, which may have spent part of it on a Before hook). The kernel enforces
 * the deadline itself, so an executor or an assertion that ignores its signal still ends on time, and
 * a run that times out reports the time it really took. `ctx.signal` is the run's own signal, which
 * fires at the deadline or on a hard stop; assertions get it too.
 */
export function executeRun(
  hooks: KernelHooks,
  testCase: TestCase,
  ctx: ExecuteContext,
  run: Watch,
): Execution | Promise<Execution> {
  const started = performance.now();
  let answer: Execution | undefined | Promise<Execution | undefined>;
  try {
    const hook = hooks.execute.get(testCase.kind);
    answer = hook ? callBail<Execution>(hook, testCase, ctx) : undefined;
  } catch (error) {
    return assess(hooks, testCase, ctx, run, failed(error, ctx, run, started));
  }
  // An executor that answers at once (a sync tap) costs the run no promise; one that answered after its deadline
  // (a synchronous agent the timer could not interrupt) timed out all the same.
  if (!isThenable(answer))
    return assess(
      hooks,
      testCase,
      ctx,
      run,
      run.overdue() ? failed(undefined, ctx, run, started) : settled(answer, testCase, ctx, run, started),
    );
  return run.race(answer).then(
    (result) => assess(hooks, testCase, ctx, run, settled(result, testCase, ctx, run, started)),
    (error: unknown) => assess(hooks, testCase, ctx, run, failed(error, ctx, run, started)),
  );
}

/** The executor's answer as the run's execution; no answer is the run's error. */
function settled(
  result: Execution | undefined,
  testCase: TestCase,
  ctx: ExecuteContext,
  run: Watch,
  started: number,
): Execution {
  try {
    if (!result) throw new AgentestError('NO_EXECUTOR', `no plugin executes cases of kind "${testCase.kind}"`);
    return { ...result, run: ctx.run, duration_ms: result.duration_ms ?? performance.now() - started };
  } catch (error) {
    return failed(error, ctx, run, started);
  }
}

/** A run whose executor threw, rejected, answered nothing or was stopped, with what it left in `ctx.partial`. */
function failed(error: unknown, ctx: ExecuteContext, run: Watch, started: number): Execution {
  const execution = stopped(run, ctx, caseError(error), started);
  if (ctx.partial?.details) execution.details = ctx.partial.details;
  if (ctx.partial?.output !== undefined) execution.output = ctx.partial.output;
  if (ctx.partial?.input !== undefined) execution.input = ctx.partial.input;
  return execution;
}

/** Runs the assertions of a passed run and rounds its duration; a promise only when an assertion answers with one. */
function assess(
  hooks: KernelHooks,
  testCase: TestCase,
  ctx: ExecuteContext,
  run: Watch,
  execution: Execution,
): Execution | Promise<Execution> {
  if (execution.status === 'passed' && testCase.assert?.length) {
    // Model calls made from here on are the judges', recorded and counted apart from the agent's.
    if (run.scope) run.scope.role = 'judge';
    const judging = judge(hooks, testCase, ctx, run, execution);
    if (judging) return judging.then(() => rounded(execution));
    // Synchronous assertions the timer could not interrupt took the run past its deadline: the verdicts stay.
    if (run.overdue()) {
      const { output, assertions } = execution;
      Object.assign(execution, stopped(run, ctx, undefined, 0, 'in its assertions'), { output, assertions });
    }
  }
  return rounded(execution);
}

function rounded(execution: Execution): Execution {
  execution.duration_ms = Math.round(execution.duration_ms * 100) / 100;
  return execution;
}

/**
 * What an executor gets for one run. A class, not a literal with a getter, because it is made for
 * every run: `signal` is the run's own and is made only if the executor reads it (see RunWatch), and
 * `context` is made only if it is read (the echo agent never reads it; a context is several objects).
 */
export class RunContext implements ExecuteContext {
  readonly #run: Watch;
  readonly #hooks: KernelHooks;
  readonly #testCase: TestCase;
  readonly #makeContext: ContextFactory;
  #context?: TestContext;
  partial?: Pick<Execution, 'output' | 'details' | 'input'>;

  constructor(
    public plan: RunPlan,
    public suite: Suite,
    public agent: Agent | undefined,
    makeContext: ContextFactory,
    public timeoutMs: number,
    public run: number,
    public runs: number,
    watch: Watch,
    public resolveAgent: (ref: AgentRef) => Promise<Agent>,
    hooks: KernelHooks,
    testCase: TestCase,
  ) {
    this.#run = watch;
    this.#hooks = hooks;
    this.#testCase = testCase;
    this.#makeContext = makeContext;
  }

  get context(): TestContext {
    if (!this.#context) {
      const id = this.#testCase.id;
      this.#context = this.#makeContext(this.#testCase, this.runs > 1 ? `test-${id}-run${this.run}` : `test-${id}`);
    }
    return this.#context;
  }

  get signal(): AbortSignal {
    return this.#run.signal;
  }

  async assert(assertions: readonly Assertion[], output: unknown, execution: Execution): Promise<AssertionResult[]> {
    const input = new RunAssertInput(
      output,
      this.#testCase,
      execution,
      this.plan,
      this.agent,
      this.#run,
      this.resolveAgent,
    );
    return assertAll(this.#hooks, assertions, input, this.#run);
  }
}

/** A run's context, made for its case and chat id by the plan's context policy. */
type ContextFactory = ReturnType<PlanContext['forAgent']>;

/** What an assertion tap gets besides the assertion; `signal` as in `RunContext`. */
class RunAssertInput implements AssertInput {
  readonly #run: Watch;

  constructor(
    public output: unknown,
    public testCase: TestCase,
    public execution: Execution,
    public plan: RunPlan,
    public agent: Agent | undefined,
    watch: Watch,
    public resolveAgent: (ref: AgentRef) => Promise<Agent>,
  ) {
    this.#run = watch;
  }

  get signal(): AbortSignal {
    return this.#run.signal;
  }
}

/**
 * Runs the assertions of a passed run and records their verdict on it. Synchronous assertions cost
 * no promise and no clock reading; the time asynchronous ones take (a script) is part of the run's duration.
 */
function judge(
  hooks: KernelHooks,
  testCase: TestCase,
  ctx: ExecuteContext,
  run: Watch,
  execution: Execution,
): void | Promise<void> {
  const results: AssertionResult[] = [];
  const input = new RunAssertInput(execution.output, testCase, execution, ctx.plan, ctx.agent, run, ctx.resolveAgent);
  const judged = assertAll(hooks, testCase.assert!, input, run, results);
  if (isThenable(judged)) return judgeAsync(testCase.assert!, ctx, run, execution, results, judged);
  record(execution, results);
}

async function judgeAsync(
  assertions: readonly Assertion[],
  ctx: ExecuteContext,
  run: Watch,
  execution: Execution,
  results: AssertionResult[],
  judged: Promise<unknown>,
): Promise<void> {
  const waited = performance.now();
  try {
    await run.race(judged);
  } catch (error) {
    // The deadline or a hard stop came while an assertion was running: the verdicts reached so far
    // are kept, and a hard stop's duration is the executor's plus the wait.
    const where = `in assertion ${results.length + 1} of ${assertions.length} (${assertions[results.length]?.type || 'equals'})`;
    Object.assign(execution, stopped(run, ctx, error, waited - execution.duration_ms, where), {
      output: execution.output,
    });
    execution.assertions = results;
    return;
  }
  // A judge's time is the judge's (`execution.judge`), not the agent's: the run's duration leaves it out.
  execution.duration_ms += Math.max(0, performance.now() - waited - judgeTime(results));
  record(execution, results);
}

function judgeTime(results: readonly AssertionResult[]): number {
  let total = 0;
  for (const a of results) if (a.judge) total += a.judge.duration_ms;
  return total;
}

function record(execution: Execution, results: AssertionResult[]): void {
  execution.assertions = execution.assertions.length ? [...execution.assertions, ...results] : results;
  for (const a of results) {
    if (a.metrics) Object.assign(execution.metrics, a.metrics);
    if (a.judge) addJudgeUsage(execution, a.judge);
  }
  const failure = failureOf(results);
  if (failure) {
    execution.status = failure.status;
    execution.error = failure.text;
  }
}

/**
 * A run that ended without an answer: `timeout` at the deadline, lasting the real time since its
 * deadline began (a Before hook included); otherwise `error` with the reason (an executor's throw,
 * a hard stop), lasting since `since`. `where` says which step the deadline interrupted.
 */
export function stopped(run: Watch, ctx: { run: number }, error: unknown, since: number, where?: string): Execution {
  const duration_ms = performance.now() - (run.timedOut ? run.started : since);
  if (run.timedOut) {
    const text = run.timeoutReason;
    return {
      run: ctx.run,
      status: 'timeout',
      duration_ms,
      error: where ? `${text} ${where}` : text,
      assertions: [],
      metrics: {},
    };
  }
  return { run: ctx.run, status: 'error', duration_ms, error: errorMessage(error), assertions: [], metrics: {} };
}

/**
 * What a throw from an execute tap says on its case. Executors return an agent's failures as data, so
 * a throw is the plugin's own fault, and the case names it (`plugin "x" failed in hook "execute:agent": …`).
 */
function caseError(error: unknown): unknown {
  if (error instanceof AgentestError && error.code !== 'PLUGIN_ERROR' && error.cause) return error.cause;
  return error;
}
