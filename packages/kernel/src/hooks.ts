import { AsyncSeriesBailHook, AsyncSeriesHook, AsyncSeriesWaterfallHook, HookMap, type Tap } from 'tapable';
import { isThenable } from './call-taps.js';
import { AgentestError, PluginError } from './errors.js';
import type { Agent, AgentRef } from './types/agent.js';
import type { TestContext } from './types/context.js';
import type { AssertionOutcome, AssertionResult, Execution } from './types/result.js';
import type { RunEvent, RunPlan } from './types/run.js';
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
   * Finds another agent (a simulator, a judge) through the `resolve` taps, as `-n` would: executors
   * that talk to more than the suite's agent reach it here instead of importing a resolver.
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
  partial?: Pick<Execution, 'output' | 'details'>;
}

/** What an assertion tap gets besides the assertion itself. */
export interface AssertInput {
  output: unknown;
  testCase: TestCase;
  execution: Execution;
  plan: RunPlan;
  agent?: Agent;
  signal: AbortSignal;
}

/**
 * What an `assert` tap may carry besides its name: `validate` says what is wrong with how an
 * assertion is written (a bad regex, a missing value) without needing an output, so a malformed
 * suite is refused before any agent is called. The first tap of a type decides, as it would answer.
 */
export interface AssertTapOptions {
  validate?: (assertion: Assertion) => string | undefined;
}

/**
 * What a `report` tap may carry besides its name: `deliver` takes the event and answers synchronously
 * or with a promise. The kernel calls it instead of the tap's function and waits only when it gets a
 * promise, so a reporter that writes into a buffer costs no promise per event. `defineReporter` sets it.
 */
export interface ReportTapOptions {
  deliver?: (event: RunEvent) => void | PromiseLike<void>;
}

/** The hook block: declared once, frozen. Only the kernel fires these; plugins tap them. */
export function createHooks() {
  const hooks = {
    setup: new AsyncSeriesHook<[RunPlan]>(['plan'], 'setup'),
    resolve: new AsyncSeriesBailHook<[AgentRef, ResolveContext], Agent | undefined>(['ref', 'ctx'], 'resolve'),
    load: new AsyncSeriesBailHook<[InputSpec, LoadContext], Suite | undefined>(['input', 'ctx'], 'load'),
    suite: new AsyncSeriesWaterfallHook<[Suite, SuiteContext], Suite | undefined>(['suite', 'ctx'], 'suite'),
    execute: new HookMap(
      (kind: string) =>
        attribute(
          new AsyncSeriesBailHook<[TestCase, ExecuteContext], Execution | undefined>(
            ['testCase', 'ctx'],
            `execute:${kind}`,
          ),
        ),
      'execute',
    ),
    assert: new HookMap(
      (type: string) =>
        attribute(
          new AsyncSeriesBailHook<[Assertion, AssertInput], AssertionOutcome | undefined, AssertTapOptions>(
            ['assertion', 'input'],
            `assert:${type}`,
          ),
        ),
      'assert',
    ),
    report: new AsyncSeriesHook<[RunEvent], ReportTapOptions>(['event'], 'report'),
    teardown: new AsyncSeriesHook<[]>([], 'teardown'),
  };
  for (const hook of [hooks.setup, hooks.resolve, hooks.load, hooks.suite, hooks.report, hooks.teardown])
    attribute(hook);

  return Object.freeze(hooks);
}

export type KernelHooks = ReturnType<typeof createHooks>;

type Untriggerable<H> = Omit<H, 'call' | 'callAsync' | 'promise'>;
type TapOnlyMap<M> = M extends HookMap<infer H> ? { for(key: string): Untriggerable<H> } : never;

/** The view plugins get: they can tap every hook but fire none. */
export type PublicHooks = {
  readonly [K in keyof KernelHooks]: KernelHooks[K] extends HookMap<any>
    ? TapOnlyMap<KernelHooks[K]>
    : Untriggerable<KernelHooks[K]>;
};

export const HOOK_NAMES = ['setup', 'resolve', 'load', 'suite', 'execute', 'assert', 'report', 'teardown'] as const;

/** Wraps every tap so that a throw becomes a PluginError naming the plugin and the hook. */
function attribute<H extends { name?: string; intercept(i: object): void }>(hook: H): H {
  const hookName = hook.name ?? 'unknown';
  hook.intercept({
    register(tap: Tap & { type: string; fn: (...args: any[]) => any }) {
      const fn = tap.fn;
      const wrap = (error: unknown) =>
        error instanceof AgentestError ? error : new PluginError(tap.name, hookName, error);
      const rethrow = (error: unknown) => {
        throw wrap(error);
      };
      if (tap.type === 'promise') {
        tap.fn = (...args: any[]) => {
          let answer;
          try {
            answer = fn(...args);
          } catch (error) {
            return Promise.reject(wrap(error));
          }
          return Promise.resolve(answer).then(undefined, rethrow);
        };
      } else if (tap.type === 'sync') {
        tap.fn = (...args: any[]) => {
          try {
            return fn(...args);
          } catch (error) {
            throw wrap(error);
          }
        };
      } else {
        tap.fn = (...args: any[]) => {
          const callback = args.pop();
          fn(...args, (error: unknown, result: unknown) => callback(error ? wrap(error) : null, result));
        };
      }
      const deliver = (tap as ReportTapOptions).deliver;
      if (deliver) {
        (tap as ReportTapOptions).deliver = (event) => {
          let answer;
          try {
            answer = deliver(event);
          } catch (error) {
            throw wrap(error);
          }
          return isThenable(answer) ? Promise.resolve(answer).then(undefined, rethrow) : undefined;
        };
      }
      return tap;
    },
  });
  return hook;
}
