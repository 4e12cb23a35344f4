import type { Agent, CaseResult, HookLog, Suite, SuiteLifecycle, TestCase } from '@agentest/kernel';
import type { ScriptHookRefs } from './options.js';
import type { ScriptPool } from './pool/types.js';
import { ScriptHookCalls, type ScriptHooksOptions } from './script-hook-calls.js';

export { resolveHookRef } from './hook-refs.js';
export type { ScriptHooksOptions } from './script-hook-calls.js';

/**
 * Yao's before/after hooks for a JSONL suite (yao-behaviour §11), run in the sandbox and looked up in
 * the `src/` of the assistant the run resolved (`-n` or auto-detected):
 * `BeforeAll(ctx, cases)`, `Before(ctx, case)`, `After(ctx, case, result, beforeData)`,
 * `AfterAll(ctx, results, beforeAllData)`. A ref like `env_test.Before` names `src/env_test.ts`,
 * function `Before` (`_test` is appended when missing, `src/` is optional, a bare `Before` means the
 * first `*_test` file). A hook returning `{data: X}` hands X on; otherwise its whole return value.
 * A case's own `before` / `after` fields (Yao's per-case hooks, kept in `testCase.data`) win over
 * `refs.before` / `refs.after` for that case, so `before` and `after` are always set, and
 * `hasCaseHooks` spares the cases without either ref. Returns a copy of the suite with `lifecycle` set.
 */
export function withScriptHooks(
  suite: Suite,
  refs: ScriptHookRefs,
  pool: ScriptPool | (() => ScriptPool),
  options: ScriptHooksOptions = {},
): Suite {
  const hooks = new ScriptHookCalls(suite, refs, pool, options);
  return { ...suite, lifecycle: { ...suiteHooks(hooks), ...caseHooks(hooks) } };
}

/** BeforeAll (which first checks every configured ref) and AfterAll, when the config names them. */
function suiteHooks(hooks: ScriptHookCalls): Partial<SuiteLifecycle> {
  const { refs } = hooks;
  const configured = (['beforeAll', 'before', 'after', 'afterAll'] as const).filter((kind) => refs[kind]);
  const lifecycle: Partial<SuiteLifecycle> = {};
  if (configured.length)
    lifecycle.beforeAll = async (cases: TestCase[], agent?: Agent, log?: HookLog) => {
      hooks.checkConfigured(configured, agent);
      if (!refs.beforeAll) return undefined;
      return hooks.call('beforeAll', refs.beforeAll, [hooks.ctxFor(), cases.map(caseView)], { agent, log });
    };
  if (refs.afterAll)
    lifecycle.afterAll = async (results: unknown[], data: unknown, agent?: Agent, log?: HookLog) => {
      const args = [hooks.ctxFor(), (results as CaseResult[]).map(resultView), data];
      await hooks.call('afterAll', refs.afterAll!, args, { agent, log });
    };
  return lifecycle;
}

/**
 * Before and After, for the cases that name a hook or when the config does: the kernel calls
 * neither for the others (no signal, no promise). A case with nothing to do answers without a promise.
 */
function caseHooks(hooks: ScriptHookCalls): Pick<SuiteLifecycle, 'hasCaseHooks' | 'before' | 'after'> {
  return {
    hasCaseHooks: (testCase: TestCase) => hooks.hasCaseHooks(testCase),
    before: (testCase: TestCase, agent?: Agent, signal?: AbortSignal, log?: HookLog) =>
      rejecting(() => {
        hooks.checkCaseAfter(testCase, agent);
        const hook = hooks.refFor(testCase, 'before');
        if (!hook) return undefined;
        const site = { agent, timeoutMs: testCase.timeoutMs, blame: hook.blame, signal, log };
        return hooks.call('before', hook.ref, [hooks.ctxFor(testCase), caseView(testCase)], site);
      }),
    after: (testCase: TestCase, result: unknown, data: unknown, agent?: Agent, signal?: AbortSignal, log?: HookLog) =>
      rejecting(() => {
        const hook = hooks.refFor(testCase, 'after');
        if (!hook) return undefined;
        const args = [hooks.ctxFor(testCase), caseView(testCase), resultView(result as CaseResult), data];
        const site = { agent, timeoutMs: testCase.timeoutMs, blame: hook.blame, signal, log };
        return hooks.call('after', hook.ref, args, site).then(() => undefined);
      }),
  };
}

/** Calls `fn`; a throw becomes a rejected promise, so a hook fails the same way whether it fails early or late. */
function rejecting<T>(fn: () => T): T | Promise<never> {
  try {
    return fn();
  } catch (error) {
    return Promise.reject(error);
  }
}

function caseView(testCase: TestCase) {
  return {
    id: testCase.id,
    input: testCase.input,
    ...(testCase.metadata ? { metadata: testCase.metadata } : {}),
    ...(testCase.assert ? { assert: testCase.assert } : {}),
  };
}

function resultView(result: CaseResult) {
  return {
    id: result.id,
    status: result.status,
    duration_ms: result.duration_ms,
    ...(result.output !== undefined ? { output: result.output } : {}),
    ...(result.error ? { error: result.error } : {}),
  };
}
