import { setMaxListeners } from 'node:events';
import createDebug from 'debug';
import { callBail, callEvery, callSeries, callWaterfall, isThenable, type StoredTap } from './call-taps.js';
import { buildEnvironment, testContextFactory } from './context.js';
import { didYouMean } from './did-you-mean.js';
import { AgentestError, PluginError, errorMessage } from './errors.js';
import { executeRun, goDuration, RunContext, stopped } from './execute-run.js';
import { createHooks, publicHooks, type AssertTapOptions, type KernelHooks, type ReportTapOptions } from './hooks.js';
import { assertPlugin, orderPlugins, type AgentestPlugin, type KernelApi } from './plugin.js';
import { HookLines } from './logs.js';
import { RunWatch, type Watch } from './run-watch.js';
import { runPool } from './scheduler.js';
import { hasSecrets, redactSecrets } from './secrets.js';
import { aggregate, type CaseBase } from './aggregate.js';
import { checkThresholdNames } from './metric-names.js';
import { collect, filtered, selects } from './select-cases.js';
import { SummaryBuilder } from './summary.js';
import type { Agent, AgentRef } from './types/agent.js';
import type { CaseResult, Execution } from './types/result.js';
import type { CaseStartEvent, RunEvent, RunOutcome, RunPlan, RunResultEvent, SummaryEvent } from './types/run.js';
import type { Assertion, Suite, TestCase } from './types/test-case.js';

const debug = createDebug('agentest:kernel');
const DEFAULT_TIMEOUT_MS = 5 * 60_000;

export interface RunSignals {
  /** First interruption: start no new case; running ones finish. */
  interrupt?: AbortSignal;
  /** Abort running cases too (a second SIGINT, SIGTERM). */
  abort?: AbortSignal;
}

/**
 * The microkernel: a frozen hook block, a plugin list and a scheduler. It knows nothing about JSONL,
 * Yao, assertions or reports; plugins bring all of that.
 */
export class Kernel {
  /** Fired only here, through `call-taps.ts`; plugins tap the view `publicHooks()` makes of it. */
  private readonly hooks: KernelHooks = createHooks();
  /** Every assertion type a plugin asked `hooks.assert.for()` about, for "known: …" in messages. */
  private readonly assertTypes: string[] = [];
  private readonly plugins: AgentestPlugin[] = [];
  private applied = false;
  private errors: Error[] = [];
  /** Set by a plugin's `halt()` (a budget): no new case starts, and the rest are recorded as not run. */
  private halted?: string;

  constructor() {
    this.hooks.assert.intercept({ factory: (type, hook) => (this.assertTypes.push(type), hook) });
  }

  use(...plugins: readonly (AgentestPlugin | false | null | undefined)[]): this {
    if (this.applied)
      throw new AgentestError('INTERNAL', 'kernel.use() after the first run: register every plugin before running');
    plugins.forEach((plugin, i) => {
      if (!plugin) return;
      assertPlugin(plugin, `plugin #${this.plugins.length + i + 1}`);
      this.plugins.push(plugin);
    });
    return this;
  }

  /** Plugin names in application order, for messages that list "the plugins that were asked". */
  pluginNames(): string[] {
    return orderPlugins(this.plugins).map((p) => p.name);
  }

  async run(plan: RunPlan, signals: RunSignals = {}): Promise<RunOutcome> {
    this.applyPlugins();
    this.errors = [];
    this.halted = undefined;
    const started = new Date();
    const interrupt = signals.interrupt ?? new AbortController().signal;
    const abort = signals.abort ?? new AbortController().signal;
    // Every running case listens on `abort`; at --parallel 64 that is many listeners, by design.
    setMaxListeners(0, abort);
    await callSeries(this.hooks.setup, plan);
    let outcome: RunOutcome;
    try {
      const suite = await this.load(plan);
      checkThresholdNames(plan, suite);
      const agent = suite.needsAgent ? await this.resolveAgent({ ...suite.agentHint, ...plan.agent }, plan) : undefined;
      const selected = await this.preflight(plan, suite);
      outcome = await this.execute(plan, suite, agent, selected, started, interrupt, abort);
    } finally {
      await this.teardown();
    }
    // Reporters flush and close at teardown: a failure there is a failed run too.
    if (this.errors.length > outcome.errors.length)
      outcome = { ...outcome, errors: [...this.errors], exitCode: outcome.exitCode === 130 ? 130 : 3 };
    return outcome;
  }

  /** Every teardown tap runs even when an earlier one fails, so one plugin cannot cost the reporters their files. */
  private async teardown(): Promise<void> {
    this.errors.push(...(await callEvery(this.hooks.teardown)));
  }

  private applyPlugins(): void {
    if (this.applied) return;
    this.applied = true;
    const api: KernelApi = {
      hooks: publicHooks(this.hooks),
      reportError: (error) => this.errors.push(error),
      halt: (reason) => void (this.halted ??= reason),
    };
    for (const plugin of orderPlugins(this.plugins)) applyPlugin(plugin, api);
  }

  /** The first `load` tap that recognises the input makes the suite; the `suite` taps then add to it or filter it. */
  private async load(plan: RunPlan): Promise<Suite> {
    const loaded = await callBail<Suite>(this.hooks.load, plan.input, { plan });
    if (loaded) return callWaterfall(this.hooks.suite, loaded, { plan });
    const asked = [...new Set(this.hooks.load.taps.map((t) => t.name))];
    throw new AgentestError(
      'NO_LOADER',
      `no plugin recognised the input ${JSON.stringify(plan.input.input)} (asked: ${asked.join(', ') || 'none'}); ` +
        'pass a .jsonl file, a message, scripts.<assistant>.<module>, or a directory of tests',
      { where: '-i' },
    );
  }

  /**
   * Resolves an agent reference through the `resolve` taps. Public so that a composition root can
   * find agents outside a run (the LLM reporter's `-r <agent>`).
   */
  async resolveAgent(ref: AgentRef, plan: RunPlan): Promise<Agent> {
    this.applyPlugins();
    const agent = await callBail<Agent>(this.hooks.resolve, ref, { plan });
    if (agent) return agent;
    const asked = [...new Set(this.hooks.resolve.taps.map((t) => t.name))];
    const what = ref.id ? `agent "${ref.id}"` : `an agent for ${ref.path ?? 'this input'}`;
    const advice = ref.id ? 'check the id: a config agent, a built-in or an assistant id' : 'pass -n <agent-id>';
    throw new AgentestError(
      'AGENT_NOT_FOUND',
      `could not find ${what} (asked: ${asked.join(', ') || 'none'}); ${advice}`,
      { where: '-n' },
    );
  }

  /**
   * Reads the suite once before any agent is called: every case kind has an executor, every assertion
   * type has a handler, and the `--run` filter selects something. Only the count is kept.
   */
  private async preflight(plan: RunPlan, suite: Suite): Promise<number> {
    // `""` (Yao's untyped assertion, an alias of `equals`) is accepted but never listed as a name to use.
    const knownAsserts = new Set(
      this.assertTypes.filter((type) => type !== '' && this.hooks.assert.get(type)?.isUsed()),
    );
    let selected = 0;
    for await (const testCase of suite.cases()) {
      if (!selects(plan, testCase)) continue;
      selected++;
      if (!this.hooks.execute.get(testCase.kind)?.isUsed()) {
        throw new AgentestError('NO_EXECUTOR', `${at(testCase)}: no plugin executes cases of kind "${testCase.kind}"`, {
          where: at(testCase),
        });
      }
      (testCase.assert ?? []).forEach((assertion, i) => {
        const taps = this.hooks.assert.get(assertion.type)?.taps;
        if (!taps?.length) {
          const known = [...knownAsserts].sort().join(', ');
          throw new AgentestError(
            'NO_ASSERTION',
            `${at(testCase)}: no plugin handles assertion type "${assertion.type}"${didYouMean(assertion.type, [...knownAsserts])} (known: ${known})`,
            { where: at(testCase) },
          );
        }
        const problem = validateWith(taps[0]!, assertion);
        if (problem)
          throw new AgentestError(
            'ASSERTION_INVALID',
            `${at(testCase)}: assert[${i}] (${assertion.type || 'equals'}): ${problem} — correct the assertion; see "Assertions" in the docs`,
            { where: at(testCase) },
          );
      });
    }
    if (selected === 0) {
      const why = plan.filter ? `--run ${plan.filter.source} matched no case` : `${suite.name} holds no test case`;
      throw new AgentestError('NO_CASES', why, { where: plan.filter ? '--run' : suite.name });
    }
    return selected;
  }

  private async execute(
    plan: RunPlan,
    suite: Suite,
    agent: Agent | undefined,
    total: number,
    started: Date,
    interrupt: AbortSignal,
    abort: AbortSignal,
  ): Promise<RunOutcome> {
    const environment = buildEnvironment({ flags: plan.env, file: plan.env.ctx });
    const agentId = agent?.id ?? suite.name;
    const connector = plan.agent?.connector ?? agent?.connector ?? '';
    const summary = new SummaryBuilder(plan.runs);
    const lifecycle = suite.lifecycle;
    const suiteLogs = new HookLines<'before_all' | 'after_all'>();
    // BeforeAll runs before the start event, so that what it printed is in the run's header.
    const beforeAllData = lifecycle?.beforeAll
      ? await lifecycle
          .beforeAll(await collect(suite, plan), agent, suiteLogs.to('before_all'))
          .catch((error: unknown) => {
            // A lifecycle that finds its own configuration wrong says so with its code (exit 2).
            throw error instanceof AgentestError && !(error instanceof PluginError)
              ? error
              : new PluginError('suite lifecycle', 'beforeAll', error);
          })
      : undefined;
    const beforeAllLogs = suiteLogs.collected?.before_all;
    await this.emit({
      type: 'start',
      timestamp: started.toISOString(),
      agent_id: agentId,
      connector,
      suite: suite.name,
      kind: suite.needsAgent ? 'agent' : 'script',
      total_cases: total,
      runs_per_case: plan.runs,
      parallel: plan.parallel,
      environment,
      ...(suite.meta ? { meta: suite.meta } : {}),
      ...(beforeAllLogs ? { hook_logs: { before_all: beforeAllLogs } } : {}),
    });
    const finished: CaseResult[] | undefined = lifecycle?.afterAll ? [] : undefined;
    let stopForFailure = false;

    const cases: CaseRunner = {
      plan,
      suite,
      agent,
      abort,
      watch: new RunWatch(abort, (ms) => `timeout after ${goDuration(ms)}`),
      context: testContextFactory({ flags: plan.env, file: plan.env.ctx, assistantId: agent?.id ?? '' }),
      // A helper (a judge) is looked up where the suite's agent is: an id in the input's Yao app.
      resolveHelper: (ref) =>
        this.resolveAgent(suite.agentHint?.path ? { path: suite.agentHint.path, ...ref } : ref, plan),
    };
    let pulled = 0;
    const runCase = async (testCase: TestCase) => {
      pulled++;
      const result = await this.runCase(cases, testCase);
      summary.add(result);
      finished?.push(result);
      if (plan.failFast && result.status !== 'passed' && result.status !== 'skipped') stopForFailure = true;
      const pending = this.emit({ type: 'result', ...result });
      if (pending) await pending;
    };
    const source = filtered(suite, plan);
    try {
      await runPool(
        source,
        plan.parallel,
        runCase,
        () => stopForFailure || interrupt.aborted || this.halted !== undefined,
      );
    } finally {
      cases.watch.dispose();
    }
    const notRun = this.halted !== undefined && !interrupt.aborted ? await this.notRun(suite, plan, pulled) : [];
    for (const result of notRun) {
      summary.add(result);
      finished?.push(result);
      const pending = this.emit({ type: 'result', ...result });
      if (pending) await pending;
    }
    if (lifecycle?.afterAll) {
      await lifecycle.afterAll(finished!, beforeAllData, agent, suiteLogs.to('after_all')).catch((error: unknown) => {
        debug('afterAll failed: %s', errorMessage(error));
        suiteLogs.to('after_all')([`AfterAll failed: ${errorMessage(error)}`]);
      });
    }

    const completed = new Date();
    const counted = summary.build(
      { agent_id: agentId, agent_path: agent?.path, connector, duration_ms: completed.getTime() - started.getTime() },
      plan.thresholds,
    );
    const event: SummaryEvent = {
      type: 'summary',
      ...counted,
      ...(interrupt.aborted ? { interrupted: true, not_run: Math.max(0, total - counted.total) } : {}),
      ...(notRun.length || this.halted !== undefined ? { halted: this.halted, not_run: notRun.length } : {}),
      ...(suiteLogs.collected ? { hook_logs: suiteLogs.collected } : {}),
      started_at: started.toISOString(),
      completed_at: completed.toISOString(),
    };
    await this.emit(event);
    // With thresholds the verdict decides, so the exit code and SHIP IT / DO NOT SHIP always agree.
    const failed = event.verdict ? !event.verdict.can_ship : event.failed + event.errors + event.timeouts > 0;
    const exitCode = interrupt.aborted ? 130 : this.errors.length ? 3 : failed || event.halted ? 1 : 0;
    return { summary: event, exitCode, errors: [...this.errors] };
  }

  /**
   * The selected cases after the first `started` ones (those the pool pulled before a halt), each a
   * skipped result saying why it did not run, so every report lists them.
   */
  private async notRun(suite: Suite, plan: RunPlan, started: number): Promise<CaseResult[]> {
    const results: CaseResult[] = [];
    let seen = 0;
    for await (const testCase of filtered(suite, plan)) {
      if (seen++ < started) continue;
      results.push({
        ...caseBase(testCase),
        status: 'skipped',
        skip_reason: `not run: ${this.halted}`,
        duration_ms: 0,
        assertions: [],
        metrics: {},
        runs: [],
      });
    }
    return results;
  }

  /**
   * Runs one case: its Before hook, its runs, its After hook. Each run has one deadline (the case's
   * timeout) for everything it does: the first run's deadline also covers the Before hook, the last
   * run's the After hook. An After hook still runs after a timed-out run, as cleanup, under a deadline
   * of its own.
   */
  private async runCase(runner: CaseRunner, testCase: TestCase): Promise<CaseResult> {
    const { plan, suite, abort, watch } = runner;
    const base = caseBase(testCase);
    if (testCase.skip || testCase.todo) {
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
    const timeoutMs = testCase.timeoutMs ?? plan.timeoutMs ?? suite.defaultTimeoutMs ?? DEFAULT_TIMEOUT_MS;
    const lifecycle = suite.lifecycle;
    const hookLogs = lifecycle?.before || lifecycle?.after ? new HookLines<'before' | 'after'>() : undefined;
    let run = watch.begin(timeoutMs);
    try {
      let beforeData: unknown;
      if (lifecycle?.before) {
        try {
          const answer = lifecycle.before(testCase, runner.agent, run.signal, hookLogs?.to('before'));
          beforeData = isThenable(answer) ? await run.race(answer) : answer;
        } catch (error) {
          // A failed Before makes its case an error and skips its After, as Yao does; a Before stopped at
          // the deadline, or one whose own time limit ran out (a `TimeoutError`), makes it a timeout.
          const failed = stopped(
            run,
            { run: 1, timeoutMs },
            `before hook failed: ${errorMessage(error)}`,
            run.started,
            'in the before hook',
          );
          if ((error as Error | undefined)?.name === 'TimeoutError') failed.status = 'timeout';
          return withHookLogs(
            aggregate(base, [{ ...failed, duration_ms: Math.round(failed.duration_ms * 100) / 100 }], 1),
            hookLogs,
          );
        }
      }
      const runs: Execution[] = [];
      for (let n = 1; n <= plan.runs; n++) {
        if (abort.aborted) break;
        if (n > 1) run = this.renew(watch, run, timeoutMs);
        runs.push(await this.runOnce(runner, testCase, n, timeoutMs, run));
      }
      const result = aggregate(base, runs, plan.runs);
      if (lifecycle?.after) {
        if (run.timedOut) run = this.renew(watch, run, timeoutMs);
        try {
          const answer = lifecycle.after(testCase, result, beforeData, runner.agent, run.signal, hookLogs?.to('after'));
          if (isThenable(answer)) await run.race(answer);
        } catch (error) {
          // A failed After does not change the verdict (Yao only logs it), but it is kept on the case.
          debug('after hook failed: %s', errorMessage(error));
          result.warnings = [...(result.warnings ?? []), `after hook failed: ${errorMessage(error)}`];
        }
      }
      return withHookLogs(result, hookLogs);
    } finally {
      watch.stop(run);
    }
  }

  /** Ends one watch and begins the next, for the next run of the same case. */
  private renew(watch: RunWatch, run: Watch, timeoutMs: number): Watch {
    watch.stop(run);
    return watch.begin(timeoutMs);
  }

  private async runOnce(
    { plan, suite, agent, context, resolveHelper }: CaseRunner,
    testCase: TestCase,
    run: number,
    timeoutMs: number,
    watch: Watch,
  ): Promise<Execution> {
    const started: CaseStartEvent = testCase.name
      ? { type: 'case_start', id: testCase.id, name: testCase.name, run, runs: plan.runs }
      : { type: 'case_start', id: testCase.id, run, runs: plan.runs };
    let pending = this.emit(started);
    if (pending) await pending;
    const chatId = plan.runs > 1 ? `test-${testCase.id}-run${run}` : `test-${testCase.id}`;
    const ctx = new RunContext(
      plan,
      suite,
      agent,
      context(testCase, chatId),
      timeoutMs,
      run,
      plan.runs,
      watch,
      resolveHelper,
    );
    const scope = {
      plan,
      suite: suite.name,
      caseId: testCase.id,
      file: testCase.source.file,
      run,
      runs: plan.runs,
      role: 'agent' as const,
      turn: 0,
    };
    watch.enterScope(scope);
    let execution: Execution;
    try {
      execution = await executeRun(this.hooks, testCase, ctx, watch);
    } finally {
      watch.enterScope(undefined);
    }
    if (suite.measure) execution.metrics = suite.measure(execution, testCase);
    const finished: RunResultEvent = testCase.name
      ? { type: 'run_result', id: testCase.id, name: testCase.name, runs: plan.runs, execution }
      : { type: 'run_result', id: testCase.id, runs: plan.runs, execution };
    pending = this.emit(finished);
    if (pending) await pending;
    return execution;
  }

  /**
   * Hands an event to every report tap in order. Reporters made with `defineReporter` answer
   * synchronously unless they have to wait, so most events cost no promise at all.
   */
  private emit(event: RunEvent): void | Promise<void> {
    // Reporters, and through them every file, log and terminal line, see registered secrets redacted
    // (a model reply that echoes the key included); verdicts were judged on the raw values.
    return callSeries(this.hooks.report, hasSecrets() ? redactSecrets(event) : event, deliverOf);
  }
}

/** What `runCase` needs besides the case: the run's settings and its shared machinery. */
interface CaseRunner {
  plan: RunPlan;
  suite: Suite;
  agent: Agent | undefined;
  abort: AbortSignal;
  watch: RunWatch;
  context: ReturnType<typeof testContextFactory>;
  /** `ExecuteContext.resolveAgent`: one function for the whole run. */
  resolveHelper: (ref: AgentRef) => Promise<Agent>;
}

function withHookLogs(result: CaseResult, lines: HookLines<'before' | 'after'> | undefined): CaseResult {
  if (lines?.collected) result.hook_logs = lines.collected;
  return result;
}

const deliverOf = (tap: StoredTap) =>
  (tap as StoredTap & ReportTapOptions).deliver as ((event: unknown) => unknown) | undefined;

/** What the tap that would judge an assertion says is wrong with how it is written; a throwing check is the plugin's fault. */
function validateWith(tap: StoredTap & AssertTapOptions, assertion: Assertion): string | undefined {
  if (!tap.validate) return undefined;
  try {
    return tap.validate(assertion);
  } catch (error) {
    throw new PluginError(tap.name, `assert:${assertion.type} (validate)`, error);
  }
}

/**
 * A plugin whose `apply` throws is set up wrong (bad options, a missing dependency): a configuration
 * error naming it, not an invariant of agentest. An AgentestError it throws keeps its own code.
 */
function applyPlugin(plugin: AgentestPlugin, api: KernelApi): void {
  try {
    plugin.apply(api);
  } catch (error) {
    if (error instanceof AgentestError) throw error;
    throw new AgentestError('PLUGIN_INVALID', `plugin "${plugin.name}" failed to apply: ${errorMessage(error)}`, {
      where: plugin.name,
      cause: error,
    });
  }
}

/** The fields of a case's result that come from the case itself. */
function caseBase(testCase: TestCase): CaseBase {
  const base: CaseBase = { id: testCase.id, kind: testCase.kind } as CaseBase;
  if (testCase.name) base.name = testCase.name;
  base.input = testCase.input;
  if (testCase.expected !== undefined) base.expected = testCase.expected;
  base.source = testCase.source;
  if (testCase.metadata) base.metadata = testCase.metadata;
  return base;
}

function at(testCase: TestCase): string {
  return testCase.source.line ? `${testCase.source.file}:${testCase.source.line}` : testCase.source.file;
}

/** Creates a kernel with the given plugins: the entry point for embedding agentest. */
export function createKernel(
  options: { plugins?: readonly (AgentestPlugin | false | null | undefined)[] } = {},
): Kernel {
  return new Kernel().use(...(options.plugins ?? []));
}
