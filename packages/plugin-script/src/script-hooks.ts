import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import createDebug from 'debug';
import {
  AgentestError,
  type Agent,
  type CaseResult,
  type ContextFile,
  type HookLog,
  type Suite,
  type SuiteLifecycle,
  type TestCase,
} from '@agentest/kernel';
import type { ScriptHookRefs } from './options.js';
import type { ScriptPool } from './pool/types.js';
import { findUp } from './resolve/app-root.js';

const debug = createDebug('agentest:script');

export interface ScriptHooksOptions {
  /**
   * The assistant directory whose `src/` holds the hook files (default: the resolved assistant's, else found up from
   * the suite's input).
   */
  assistantDir?: string;
  /** Time limit of one hook call (default 30 s). */
  timeoutMs?: number;
  /** `-u`, `-t` and the `--ctx` file, for the hooks' `ctx`. */
  env?: { user?: string; team?: string; ctx?: ContextFile };
}

/**
 * Yao's before/after hooks for a JSONL suite (yao-behaviour §11), run in the sandbox and looked up in
 * the `src/` of the assistant the run resolved (`-n` or auto-detected):
 * `BeforeAll(ctx, cases)`, `Before(ctx, case)`, `After(ctx, case, result, beforeData)`,
 * `AfterAll(ctx, results, beforeAllData)`. A ref like `env_test.Before` names `src/env_test.ts`,
 * function `Before` (`_test` is appended when missing, `src/` is optional, a bare `Before` means the
 * first `*_test` file). A hook returning `{data: X}` hands X on; otherwise its whole return value.
 * A case's own `before` / `after` fields (Yao's per-case hooks, kept in `testCase.data`) win over
 * `refs.before` / `refs.after` for that case, so `before` and `after` are always set: a case without
 * either ref costs one resolved promise. Returns a copy of the suite with `lifecycle` set.
 */
export function withScriptHooks(
  suite: Suite,
  refs: ScriptHookRefs,
  pool: ScriptPool | (() => ScriptPool),
  options: ScriptHooksOptions = {},
): Suite {
  const getPool = typeof pool === 'function' ? pool : () => pool;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const assistants = new AssistantDirs(suite, options.assistantDir);
  /** Case-level After refs already found in their files. */
  const checked = new Set<string>();

  // `signal` is the case's deadline (Before and After run under it), which may end a hook before its own time limit.
  const call = async (
    kind: keyof ScriptHookRefs,
    ref: string,
    args: unknown[],
    agent: Agent | undefined,
    caseTimeoutMs?: number,
    blame = `hooks.${kind}`,
    signal?: AbortSignal,
    log?: HookLog,
  ): Promise<unknown> => {
    const { file, fn } = resolveHookRef(ref, assistants.for(agent, ref));
    const result = await getPool().call({ file, fn, args, timeoutMs: caseTimeoutMs ?? timeoutMs }, signal);
    // What the hook printed goes to the reports, also (above all) when it then failed.
    log?.(result.logs);
    if (result.status === 'missing') throw missingFunction(blame, ref, file, fn);
    if (result.status !== 'ok') {
      debug('hook %s (%s) %s: %s', kind, ref, result.status, result.error);
      // The kernel records a failed Before on its case (status error) and stops the run on a failed
      // BeforeAll; After and AfterAll failures are only logged, as in Yao.
      const error = new Error(`${ref} ${result.status === 'timeout' ? 'timed out' : 'failed'}: ${result.error}`);
      // The kernel makes a case whose Before hook ran out of time a timeout, not an error.
      if (result.status === 'timeout') error.name = 'TimeoutError';
      throw error;
    }
    const value = result.value as { data?: unknown } | undefined;
    return value && typeof value === 'object' && 'data' in value ? value.data : value;
  };

  const ctxFor = (testCase?: { user?: string; team?: string; metadata?: Record<string, unknown> }) => {
    const file = options.env?.ctx;
    const user = options.env?.user || testCase?.user || file?.authorized?.user_id || 'test-user';
    const team = options.env?.team || testCase?.team || file?.authorized?.team_id || 'test-team';
    return {
      locale: file?.locale || 'en',
      authorized: { sub: user, user_id: user, team_id: team, tenant_id: team, ...(file?.authorized ?? {}) },
      metadata: { ...(file?.metadata ?? {}), ...(testCase?.metadata ?? {}) },
    };
  };

  /** The case's own `before`/`after` ref, else the configured one; `blame` names where it was written. */
  const refFor = (testCase: TestCase, kind: 'before' | 'after'): { ref: string; blame: string } | undefined => {
    const own = (testCase.data as Record<string, unknown> | undefined)?.[kind];
    if (own !== undefined && own !== null && own !== '') {
      if (typeof own !== 'string')
        throw new Error(
          `field "${kind}" of case "${testCase.id}" must be a hook name such as "env_test.${kind === 'before' ? 'Before' : 'After'}"`,
        );
      return { ref: own, blame: `${testCase.source.file}:${testCase.source.line}: field "${kind}"` };
    }
    return refs[kind] ? { ref: refs[kind], blame: `hooks.${kind}` } : undefined;
  };

  // Configured refs are checked before the first case, so a typo in an AfterAll is not found only at the end.
  const configured = (['beforeAll', 'before', 'after', 'afterAll'] as const).filter((kind) => refs[kind]);
  const lifecycle: SuiteLifecycle = {
    ...(configured.length
      ? {
          beforeAll: async (cases: TestCase[], agent?: Agent, log?: HookLog) => {
            for (const kind of configured)
              checkHookRef(refs[kind]!, assistants.for(agent, refs[kind]!), `hooks.${kind}`);
            return refs.beforeAll
              ? call(
                  'beforeAll',
                  refs.beforeAll,
                  [ctxFor(), cases.map(caseView)],
                  agent,
                  undefined,
                  undefined,
                  undefined,
                  log,
                )
              : undefined;
          },
        }
      : {}),
    ...(refs.afterAll
      ? {
          afterAll: async (results: unknown[], data: unknown, agent?: Agent, log?: HookLog) =>
            void (await call(
              'afterAll',
              refs.afterAll!,
              [ctxFor(), (results as CaseResult[]).map(resultView), data],
              agent,
              undefined,
              undefined,
              undefined,
              log,
            )),
        }
      : {}),
    // Before and After run for every case, most of which name no hook: those answer without a promise.
    before: (testCase: TestCase, agent?: Agent, signal?: AbortSignal, log?: HookLog) =>
      rejecting(() => {
        // A case's own After is checked now: a typo there makes the case an error before its agent call,
        // not a warning after it.
        const afterHook = refFor(testCase, 'after');
        if (afterHook && afterHook.blame !== 'hooks.after' && !checked.has(afterHook.ref)) {
          checkHookRef(afterHook.ref, assistants.for(agent, afterHook.ref), afterHook.blame);
          checked.add(afterHook.ref);
        }
        const hook = refFor(testCase, 'before');
        if (!hook) return undefined;
        const args = [ctxFor(testCase), caseView(testCase)];
        return call('before', hook.ref, args, agent, testCase.timeoutMs, hook.blame, signal, log);
      }),
    after: (testCase: TestCase, result: unknown, data: unknown, agent?: Agent, signal?: AbortSignal, log?: HookLog) =>
      rejecting(() => {
        const hook = refFor(testCase, 'after');
        if (!hook) return undefined;
        const args = [ctxFor(testCase), caseView(testCase), resultView(result as CaseResult), data];
        return call('after', hook.ref, args, agent, testCase.timeoutMs, hook.blame, signal, log).then(() => undefined);
      }),
  };
  return { ...suite, lifecycle };
}

/** Calls `fn`; a throw becomes a rejected promise, so a hook fails the same way whether it fails early or late. */
function rejecting<T>(fn: () => T): T | Promise<never> {
  try {
    return fn();
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * Where hook refs are resolved, as Yao does: the `src/` of the assistant that runs the cases (`-n`,
 * or the one found from the suite), so a suite kept outside its assistant's folder still finds them.
 * An agent that is no Yao assistant (echo, a config agent) falls back to the package.yao above the suite.
 */
class AssistantDirs {
  private last?: { agent: Agent | undefined; dir: string };

  constructor(
    private readonly suite: Suite,
    private readonly fixed?: string,
  ) {}

  for(agent: Agent | undefined, ref: string): string {
    if (this.fixed) return resolve(this.fixed);
    if (this.last && this.last.agent === agent) return this.last.dir;
    const own = agent?.path && existsSync(join(agent.path, 'package.yao')) ? resolve(agent.path) : undefined;
    const dir = own ?? findAssistantDir(this.suite, agent, ref);
    this.last = { agent, dir };
    return dir;
  }
}

/** `env_test.Before` → `<assistant>/src/env_test.ts`, function `Before`. */
export function resolveHookRef(ref: string, assistantDir: string): { file: string; fn: string } {
  const parts = ref.split('.');
  const fn = parts.pop()!;
  const src = join(assistantDir, 'src');
  let module = parts.join('/').replace(/^src\//, '');
  if (!module) {
    const first = existsSync(src)
      ? readdirSync(src)
          .filter((name) => /_test\.[jt]s$/.test(name))
          .sort()[0]
      : undefined;
    if (!first)
      throw new AgentestError('CONFIG_INVALID', `hook ${ref}: no *_test.ts file in ${src} to take ${fn} from`, {
        where: ref,
      });
    module = first.replace(/\.[jt]s$/, '');
  }
  if (!module.endsWith('_test')) module += '_test';
  const tried = ['.ts', '.js'].map((ext) => join(src, module + ext));
  const file = tried.find((path) => existsSync(path));
  if (!file)
    throw new AgentestError('CONFIG_INVALID', `hook ${ref}: file not found (tried: ${tried.join(', ')})`, {
      where: ref,
    });
  return { file, fn };
}

/**
 * Fails early when a ref's file is missing or never mentions the function's name. The word test is
 * deliberately loose (any declaration style passes); the call itself still reports a missing export.
 */
function checkHookRef(ref: string, assistantDir: string, blame: string): void {
  const { file, fn } = resolveHookRef(ref, assistantDir);
  if (!new RegExp(`\\b${fn.replace(/[^\w$]/g, '')}\\b`).test(readFileSync(file, 'utf8')))
    throw missingFunction(blame, ref, file, fn);
}

/** `hooks.after: env_test.Afterr: assistants/hooks/src/env_test.ts:Afterr does not exist`. */
function missingFunction(blame: string, ref: string, file: string, fn: string): AgentestError {
  const shown = relative(process.cwd(), file);
  const where = `${shown.startsWith('..') ? file : shown}:${fn}`;
  return new AgentestError(
    'CONFIG_INVALID',
    `${blame}: ${ref}: ${where} does not exist; define ${fn} in that file or correct the hook name`,
    { where: blame },
  );
}

function findAssistantDir(suite: Suite, agent: Agent | undefined, ref: string): string {
  const from = suite.agentHint?.path;
  const dir = from
    ? findUp(existsSync(from) && !from.endsWith('.jsonl') ? from : dirname(from), ['package.yao'])
    : undefined;
  if (dir) return dir;
  const ran = agent ? `the agent "${agent.id}" is not a Yao assistant` : 'no agent was resolved';
  throw new AgentestError(
    'CONFIG_INVALID',
    `hook ${ref}: cannot tell which assistant's src/ holds it: ${ran}, and no package.yao is above ${from ?? 'the suite input'}; pass -n <assistant-id>`,
    { where: ref },
  );
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
