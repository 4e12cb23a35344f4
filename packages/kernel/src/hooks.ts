import { AsyncSeriesBailHook, AsyncSeriesHook, AsyncSeriesWaterfallHook, HookMap } from 'tapable';
import type { Agent, AgentRef } from './types/agent.js';
import type { TestContext } from './types/context.js';
import type { AssertionOutcome, AssertionResult, Execution } from './types/result.js';
import type { RunEvent, RunPlan, Summary } from './types/run.js';
import type { Assertion, InputSpec, Suite, TestCase } from './types/test-case.js';

export interface ResolveContext {
  plan: RunPlan;
}

export interface LoadContext {
  plan: RunPlan;
  /** Finds an agent through the `resolve` taps: loaders that ask an agent for cases (`-i agents:<id>`) use it. */
  resolveAgent(ref: AgentRef): Promise<Agent>;
}

/** What a `suite` tap gets besides the suite the taps before it handed on. */
export interface SuiteContext {
  plan: RunPlan;
}

/** What a `summary` tap gets besides the summary the taps before it handed on. */
export interface SummaryContext {
  plan: RunPlan;
  suite: Suite;
}

/** What an executor gets for one run of one case. */
export interface ExecuteContext {
  plan: RunPlan;
  suite: Suite;
  /** The suite's agent; undefined for suites that need none. */
  agent?: Agent;
  /** The context for this case and run, built with the design's priority rules. */
  context: TestContext;
  /** Fires at the case's timeout, on interruption, and on fail-fast. */
  signal: AbortSignal;
  timeoutMs: number;
  run: number;
  runs: number;
  /**
   * Finds another agent by reference (the run's resolvers, the same ones `-n` goes through), for
   * plugins that call a helper agent during a case: a judge, a simulated user.
   */
  resolveAgent(ref: AgentRef): Promise<Agent>;
  /**
   * Judges an output with assertions exactly as a case's own `assert` is judged (`negate`,
   * `message`, unjudged assertions), under this run's signal: a dynamic case's checkpoints use it.
   */
  assert(assertions: readonly Assertion[], output: unknown, execution: Execution): Promise<AssertionResult[]>;
  /**
   * What the executor has so far (a conversation's turns): when the run times out or is stopped
   * before the executor answers, the kernel keeps these on the execution it records instead.
   */
  partial?: Pick<Execution, 'output' | 'details' | 'input'>;
}

/** What an assertion tap gets besides the assertion itself. */
export interface AssertInput {
  output: unknown;
  testCase: TestCase;
  execution: Execution;
  plan: RunPlan;
  agent?: Agent;
  signal: AbortSignal;
  /** Finds another agent by reference, as `ExecuteContext.resolveAgent` does (a judge agent). */
  resolveAgent(ref: AgentRef): Promise<Agent>;
}

/**
 * What an `assert` tap may carry besides its name: `validate` says what is wrong with how an
 * assertion is written (a bad regex, a missing value) without needing an output, so a malformed
 * suite is refused before any agent is called. The first tap of a type decides, as it would answer.
 */
export interface AssertTapOptions {
  validate?: (assertion: Assertion) => string | undefined;
  /** The agents the assertion will call (a judge): found before the run, so a wrong id costs no case. */
  helpers?: (assertion: Assertion) => HelperUse[];
}

/** What an `execute` tap may carry besides its name: the agents its cases will call besides the agent under test. */
export interface ExecuteTapOptions {
  helpers?: (testCase: TestCase, plan: RunPlan) => HelperUse[];
}

/** An agent a case calls besides the one under test (a judge, a simulated user), as the case names it. */
export interface HelperUse {
  /** What it does for the case: `judge`, `simulator`. */
  role: string;
  /** The reference as written, for messages (`agents:grader`, `connector:openai`). */
  use: string;
  ref: AgentRef;
}

/**
 * What a `report` tap may carry besides its name: `deliver` takes the event and answers synchronously
 * or with a promise. The kernel calls it instead of the tap's function and waits only when it gets a
 * promise, so a reporter that writes into a buffer costs no promise per event. `defineReporter` sets it.
 */
export interface ReportTapOptions {
  deliver?: (event: RunEvent) => void | PromiseLike<void>;
}

/**
 * The hook block: declared once, frozen. Only the kernel fires these (through the dispatch in
 * `call-taps.ts`, which honours every interceptor); plugins get `publicHooks()`, a view that taps.
 */
export function createHooks() {
  return Object.freeze({
    setup: new AsyncSeriesHook<[RunPlan]>(['plan'], 'setup'),
    resolve: new AsyncSeriesBailHook<[AgentRef, ResolveContext], Agent | undefined>(['ref', 'ctx'], 'resolve'),
    load: new AsyncSeriesBailHook<[InputSpec, LoadContext], Suite | undefined>(['input', 'ctx'], 'load'),
    suite: new AsyncSeriesWaterfallHook<[Suite, SuiteContext], Suite | undefined>(['suite', 'ctx'], 'suite'),
    execute: new HookMap(
      (kind: string) =>
        new AsyncSeriesBailHook<[TestCase, ExecuteContext], Execution | undefined, ExecuteTapOptions>(
          ['testCase', 'ctx'],
          `execute:${kind}`,
        ),
      'execute',
    ),
    assert: new HookMap(
      (type: string) =>
        new AsyncSeriesBailHook<[Assertion, AssertInput], AssertionOutcome | undefined, AssertTapOptions>(
          ['assertion', 'input'],
          `assert:${type}`,
        ),
      'assert',
    ),
    summary: new AsyncSeriesWaterfallHook<[Summary, SummaryContext], Summary | undefined>(
      ['summary', 'ctx'],
      'summary',
    ),
    report: new AsyncSeriesHook<[RunEvent], ReportTapOptions>(['event'], 'report'),
    teardown: new AsyncSeriesHook<[]>([], 'teardown'),
  });
}

export type KernelHooks = ReturnType<typeof createHooks>;

/** What a plugin can do with one hook: tap it, intercept it, ask whether anyone tapped it. */
export type PublicHook<H> = Pick<
  H,
  Extract<keyof H, 'name' | 'tap' | 'tapAsync' | 'tapPromise' | 'intercept' | 'isUsed'>
>;

/** A keyed hook (`execute`, `assert`): `for(key)` gives the hook of one case kind or assertion type. */
export interface PublicHookMap<H> {
  readonly name: string | undefined;
  for(key: string): PublicHook<H>;
}

/** The view plugins get: every hook can be tapped and intercepted, none fired. */
export type PublicHooks = {
  readonly [K in keyof KernelHooks]: KernelHooks[K] extends HookMap<infer H>
    ? PublicHookMap<H>
    : PublicHook<KernelHooks[K]>;
};

/**
 * Builds the view plugins get, as tapable's own `withOptions` facade does: an object that holds only
 * the methods that work (no `call`, `promise`, `taps` or `interceptors`), so a plugin cannot fire a
 * hook, nor see or change another plugin's taps, even by ignoring the types.
 */
export function publicHooks(hooks: KernelHooks): PublicHooks {
  const view = {} as Record<string, unknown>;
  for (const [name, hook] of Object.entries(hooks)) {
    view[name] =
      hook instanceof HookMap
        ? Object.freeze({ name: hook.name, for: (key: string) => tapOnly(hook.for(key)) })
        : tapOnly(hook);
  }
  return Object.freeze(view) as PublicHooks;
}

/** Any function: tapable's methods differ per hook class, and only their presence matters here. */
type AnyFunction = (...args: never[]) => unknown;

interface Tappable {
  name: string | undefined;
  tap: AnyFunction;
  tapAsync: AnyFunction;
  tapPromise: AnyFunction;
  intercept: AnyFunction;
  isUsed: AnyFunction;
}

function tapOnly<H extends Tappable>(hook: H): PublicHook<H> {
  return Object.freeze({
    name: hook.name,
    tap: hook.tap.bind(hook),
    tapAsync: hook.tapAsync.bind(hook),
    tapPromise: hook.tapPromise.bind(hook),
    intercept: hook.intercept.bind(hook),
    isUsed: hook.isUsed.bind(hook),
  }) as PublicHook<H>;
}
