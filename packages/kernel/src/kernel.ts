import { setMaxListeners } from 'node:events';
import { callBail, callEvery, callSeries, callWaterfall, isThenable, type StoredTap } from './call-taps.js';
import { AgentestError, PluginError, errorMessage, isAgentestError } from './errors.js';
import { createHooks, publicHooks, type KernelHooks, type ReportTapOptions } from './hooks.js';
import { checkPluginShape, orderPlugins, type AgentestPlugin, type KernelApi } from './plugin.js';
import { debugLogger } from './debug-log.js';
import { HookLines } from './logs.js';
import { RunWatch } from './run-watch.js';
import { planContextOf } from './run-context.js';
import { notRunResults, runCase, type CaseRunner } from './run-case.js';
import { preflight } from './preflight.js';
import { runPool } from './scheduler.js';
import { hasSecrets, redactSecrets } from './secrets.js';
import { collect, filtered } from './select-cases.js';
import { SummaryBuilder } from './summary.js';
import type { Agent, AgentRef } from './types/agent.js';
import type { CaseResult } from './types/result.js';
import type { RunEvent, RunOutcome, RunPlan, StartEvent, SummaryEvent } from './types/run.js';
import type { Suite, TestCase } from './types/test-case.js';

const debug = debugLogger('agentest:kernel');

export interface RunSignals {
  /** First interruption: start no new case; running ones finish. */
  interrupt?: AbortSignal;
  /** Abort running cases too (a second SIGINT, SIGTERM). */
  abort?: AbortSignal;
}

/**
 * The microkernel: a frozen hook block, a plugin list and a scheduler. It runs a plan's cases through
 * the taps: loading, agents, executors and assertion types, reports, the run's context and its verdict
 * all come from plugins or from whoever built the plan. What it does itself is the mechanism: the order
 * of a case's steps (its hooks, runs and assertions), deadlines, concurrency, the summary's counts,
 * and redacting registered secrets before reporters hear an event.
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
      checkPluginShape(plugin, `plugin #${this.plugins.length + i + 1}`);
      this.plugins.push(plugin);
    });
    return this;
  }

  /** Plugin names in application order, for messages that list "the plugins that were asked". */
  pluginNames(): string[] {
    return orderPlugins(this.plugins).map((p) => p.name);
  }

  /**
   * Runs a plan. Resolves with the outcome once cases were scheduled (failures, reporter errors and
   * interruptions included); rejects only with an `AgentestError` when the run cannot go on (docs/embedding.md).
   */
  async run(plan: RunPlan, signals: RunSignals = {}): Promise<RunOutcome> {
    try {
      return await this.runPlan(plan, signals);
    } catch (error) {
      throw stoppedBy(error);
    }
  }

  private async runPlan(plan: RunPlan, signals: RunSignals): Promise<RunOutcome> {
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
      const agent = suite.needsAgent ? await this.resolveAgent({ ...suite.agentHint, ...plan.agent }, plan) : undefined;
      const selected = await preflight(this.hooks, this.assertTypes, plan, suite, this.helperResolver(suite, plan));
      outcome = await this.execute(plan, suite, agent, selected, started, interrupt, abort);
    } finally {
      await this.teardown();
    }
    // Reporters flush and close at teardown: a failure there is part of the outcome too.
    if (this.errors.length > outcome.errors.length) outcome = { ...outcome, errors: [...this.errors] };
    return outcome;
  }

  /**
   * Loads and checks the suite exactly as a run would (every case kind has an executor, every
   * assertion a handler, `--run` selects something), and returns the selected cases without running
   * any: `--dry-run`. Setup and teardown taps run as for a run.
   */
  async list(plan: RunPlan): Promise<TestCase[]> {
    this.applyPlugins();
    await this.hooks.setup.promise(plan);
    try {
      const suite = await this.load(plan);
      await preflight(this.hooks, this.assertTypes, plan, suite, this.helperResolver(suite, plan));
      return await collect(suite, plan);
    } finally {
      await this.teardown();
    }
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
    const loaded =
      plan.suite ??
      (await callBail<Suite>(this.hooks.load, plan.input, {
        plan,
        resolveAgent: (ref: AgentRef) => this.resolveAgent(ref, plan),
      }));
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

  private async execute(
    plan: RunPlan,
    suite: Suite,
    agent: Agent | undefined,
    total: number,
    started: Date,
    interrupt: AbortSignal,
    abort: AbortSignal,
  ): Promise<RunOutcome> {
    const summary = new SummaryBuilder(plan.runs);
    const lifecycle = suite.lifecycle;
    const suiteLogs = new HookLines<'before_all' | 'after_all'>();
    // BeforeAll runs before the start event, so that what it printed is in the run's header.
    const beforeAllData = lifecycle?.beforeAll ? await beforeAll(suite, plan, agent, suiteLogs) : undefined;
    await this.emit(startEvent(plan, suite, agent, total, started, suiteLogs.collected?.before_all));
    const finished: CaseResult[] | undefined = lifecycle?.afterAll ? [] : undefined;
    let failedFast: string | undefined;
    const runner = this.caseRunner(plan, suite, agent, abort);
    // The cases the pool started: in the suite's order a count says which; a `plan.order` (which holds
    // every case anyway) needs their ids. A count keeps a million-case run's memory flat.
    let pulled = 0;
    const pulledIds = plan.order ? new Set<string>() : undefined;
    const onResult = (result: CaseResult) => {
      summary.add(result);
      finished?.push(result);
      if (plan.failFast && result.status !== 'passed' && result.status !== 'skipped')
        failedFast ??= `--fail-fast after case ${result.id} ${result.status === 'failed' ? 'failed' : `had status ${result.status}`}`;
      return this.emit({ type: 'result', ...result });
    };
    // A case that answers at once is reported at once: no promise per case unless a step needs one.
    const onCase = (testCase: TestCase) => {
      pulled++;
      pulledIds?.add(testCase.id);
      const result = runCase(runner, testCase);
      return isThenable(result) ? result.then(onResult) : onResult(result);
    };
    const stop = () => failedFast !== undefined || interrupt.aborted || this.halted !== undefined;
    try {
      const source = plan.order ? await plan.order(await collect(suite, plan)) : filtered(suite, plan);
      await runPool(source, plan.parallel, onCase, stop);
    } finally {
      runner.watch.dispose();
    }
    // --fail-fast halts the run as a budget does when cases are left: those it never started are reported as not run.
    const haltedBy = this.halted ?? failedFast;
    const stoppedEarly = haltedBy !== undefined && !interrupt.aborted;
    const notRun = stoppedEarly ? await notRunResults(suite, plan, pulledIds ?? pulled, haltedBy) : [];
    if (notRun.length) this.halted ??= haltedBy;
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
    return this.finish(plan, suite, agent, summary, total, started, interrupt, suiteLogs, notRun.length);
  }

  /** The machinery every case of the run shares. */
  private caseRunner(plan: RunPlan, suite: Suite, agent: Agent | undefined, abort: AbortSignal): CaseRunner {
    return {
      hooks: this.hooks,
      emit: (event) => this.emit(event),
      plan,
      suite,
      agent,
      abort,
      watch: new RunWatch(abort, (ms) => `timeout after ${plan.durationText?.(ms) ?? `${ms}ms`}`),
      context: planContextOf(plan).forAgent(agent?.id ?? ''),
      resolveHelper: this.helperResolver(suite, plan),
    };
  }

  /** A helper (a judge, a simulated user) is looked up where the suite's agent is: an id in the input's Yao app. */
  private helperResolver(suite: Suite, plan: RunPlan): (ref: AgentRef) => Promise<Agent> {
    return (ref) => this.resolveAgent(suite.agentHint?.path ? { path: suite.agentHint.path, ...ref } : ref, plan);
  }

  /** Sends the summary and answers the run's outcome with its exit code. */
  private async finish(
    plan: RunPlan,
    suite: Suite,
    agent: Agent | undefined,
    summary: SummaryBuilder,
    total: number,
    started: Date,
    interrupt: AbortSignal,
    suiteLogs: HookLines<'before_all' | 'after_all'>,
    notRun: number,
  ): Promise<RunOutcome> {
    const completed = new Date();
    const connector = plan.agent?.connector ?? agent?.connector ?? '';
    const built = summary.build({
      agent_id: agent?.id ?? suite.name,
      agent_path: agent?.path,
      connector,
      duration_ms: completed.getTime() - started.getTime(),
    });
    // Whether the run stopped early is a fact the `summary` taps see (a stopped run does not ship) and cannot undo.
    const stopped = {
      ...(interrupt.aborted ? { interrupted: true, not_run: Math.max(0, total - built.total) } : {}),
      ...(notRun || this.halted !== undefined ? { halted: this.halted, not_run: notRun } : {}),
    };
    // `summary` taps amend the counts (the verdict plugin judges the thresholds) before any reporter hears them.
    const counted = await callWaterfall(this.hooks.summary, { ...built, ...stopped }, { plan, suite });
    const event: SummaryEvent = {
      type: 'summary',
      ...counted,
      ...stopped,
      ...(suiteLogs.collected ? { hook_logs: suiteLogs.collected } : {}),
      started_at: started.toISOString(),
      completed_at: completed.toISOString(),
    };
    await this.emit(event);
    return { summary: event, errors: [...this.errors] };
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

/** Runs the suite's BeforeAll; a lifecycle that finds its own configuration wrong says so with its code (exit 2). */
async function beforeAll(
  suite: Suite,
  plan: RunPlan,
  agent: Agent | undefined,
  logs: HookLines<'before_all' | 'after_all'>,
): Promise<unknown> {
  try {
    return await suite.lifecycle!.beforeAll!(await collect(suite, plan), agent, logs.to('before_all'));
  } catch (error) {
    throw error instanceof AgentestError && !(error instanceof PluginError)
      ? error
      : new PluginError('suite lifecycle', 'beforeAll', error);
  }
}

function startEvent(
  plan: RunPlan,
  suite: Suite,
  agent: Agent | undefined,
  total: number,
  started: Date,
  beforeAllLogs: string[] | undefined,
): StartEvent {
  return {
    type: 'start',
    timestamp: started.toISOString(),
    agent_id: agent?.id ?? suite.name,
    connector: plan.agent?.connector ?? agent?.connector ?? '',
    suite: suite.name,
    kind: suite.needsAgent ? 'agent' : 'script',
    total_cases: total,
    runs_per_case: plan.runs,
    parallel: plan.parallel,
    environment: planContextOf(plan).environment,
    ...(suite.meta ? { meta: suite.meta } : {}),
    ...(plan.shard ? { shard: plan.shard } : {}),
    ...(beforeAllLogs ? { hook_logs: { before_all: beforeAllLogs } } : {}),
  };
}

const deliverOf = (tap: StoredTap) =>
  (tap as StoredTap & ReportTapOptions).deliver as ((event: unknown) => unknown) | undefined;

/**
 * What a run that cannot go on rejects with: always an `AgentestError`. A plain throw that reaches here
 * came from plugin code the kernel calls outside a tap (a suite's `cases()`, a plan's `order`).
 */
function stoppedBy(error: unknown): AgentestError {
  if (isAgentestError(error)) return error;
  return new AgentestError('PLUGIN_ERROR', `the run stopped: ${errorMessage(error)}`, { cause: error });
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

/** Creates a kernel with the given plugins: the entry point for embedding agentest. */
export function createKernel(
  options: { plugins?: readonly (AgentestPlugin | false | null | undefined)[] } = {},
): Kernel {
  return new Kernel().use(...(options.plugins ?? []));
}
