import type { Agent, ContextFile, HookLog, Suite, TestCase } from '@agentest/kernel';
import { debugLogger } from '@agentest/kernel/secrets';
import { AssistantDirs, checkHookRef, missingFunction, resolveHookRef } from './hook-refs.js';
import type { ScriptHookRefs } from './options.js';
import type { ScriptPool } from './pool/types.js';

const debug = debugLogger('agentest:script');

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

/** Where one hook call comes from and what bounds it. */
export interface HookCallSite {
  agent: Agent | undefined;
  /** The case's own time limit, else the hooks' default. */
  timeoutMs?: number;
  /** Who named the hook, for a missing function (default `hooks.<kind>`). */
  blame?: string;
  /** The case's deadline (Before and After run under it), which may end a hook before its own time limit. */
  signal?: AbortSignal;
  log?: HookLog;
}

/** Calls the Yao hooks of one suite in the sandbox: finds their files, builds their `ctx`, reads their answers. */
export class ScriptHookCalls {
  private readonly getPool: () => ScriptPool;
  private readonly timeoutMs: number;
  private readonly assistants: AssistantDirs;
  /** Case-level After refs already found in their files. */
  private readonly checked = new Set<string>();

  constructor(
    suite: Suite,
    readonly refs: ScriptHookRefs,
    pool: ScriptPool | (() => ScriptPool),
    private readonly options: ScriptHooksOptions,
  ) {
    this.getPool = typeof pool === 'function' ? pool : () => pool;
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.assistants = new AssistantDirs(suite, options.assistantDir);
  }

  /** Runs a hook; `{data: X}` hands X on, any other return value is handed on whole. */
  async call(kind: keyof ScriptHookRefs, ref: string, args: unknown[], site: HookCallSite): Promise<unknown> {
    const { file, fn } = resolveHookRef(ref, this.assistants.for(site.agent, ref));
    const timeoutMs = site.timeoutMs ?? this.timeoutMs;
    const result = await this.getPool().call({ file, fn, args, timeoutMs }, site.signal);
    // What the hook printed goes to the reports, also (above all) when it then failed.
    site.log?.(result.logs);
    if (result.status === 'missing') throw missingFunction(site.blame ?? `hooks.${kind}`, ref, file, fn);
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
  }

  /** The hook's `ctx`: `-u`/`-t`/`--ctx` over the case's user, team and metadata. */
  ctxFor(testCase?: { user?: string; team?: string; metadata?: Record<string, unknown> }) {
    const env = this.options.env;
    const file = env?.ctx;
    const user = env?.user || testCase?.user || file?.authorized?.user_id || 'test-user';
    const team = env?.team || testCase?.team || file?.authorized?.team_id || 'test-team';
    return {
      locale: file?.locale || 'en',
      authorized: { sub: user, user_id: user, team_id: team, tenant_id: team, ...(file?.authorized ?? {}) },
      metadata: { ...(file?.metadata ?? {}), ...(testCase?.metadata ?? {}) },
    };
  }

  /** Whether the case has a Before or an After to run: a configured ref, or one of its own. */
  hasCaseHooks(testCase: TestCase): boolean {
    if (this.refs.before || this.refs.after) return true;
    const data = testCase.data as Record<string, unknown> | undefined;
    return data !== undefined && (isNamed(data.before) || isNamed(data.after));
  }

  /** The case's own `before`/`after` ref, else the configured one; `blame` names where it was written. */
  refFor(testCase: TestCase, kind: 'before' | 'after'): { ref: string; blame: string } | undefined {
    const own = (testCase.data as Record<string, unknown> | undefined)?.[kind];
    if (isNamed(own)) {
      if (typeof own !== 'string')
        throw new Error(
          `field "${kind}" of case "${testCase.id}" must be a hook name such as "env_test.${kind === 'before' ? 'Before' : 'After'}"`,
        );
      return { ref: own, blame: `${testCase.source.file}:${testCase.source.line}: field "${kind}"` };
    }
    return this.refs[kind] ? { ref: this.refs[kind], blame: `hooks.${kind}` } : undefined;
  }

  /** The configured refs, checked before the first case so that a typo in an AfterAll is not found at the end. */
  checkConfigured(kinds: readonly (keyof ScriptHookRefs)[], agent: Agent | undefined): void {
    for (const kind of kinds) {
      const ref = this.refs[kind]!;
      checkHookRef(ref, this.assistants.for(agent, ref), `hooks.${kind}`);
    }
  }

  /** A case's own After, checked before its agent call: a typo there makes the case an error, not a late warning. */
  checkCaseAfter(testCase: TestCase, agent: Agent | undefined): void {
    const hook = this.refFor(testCase, 'after');
    if (!hook || hook.blame === 'hooks.after' || this.checked.has(hook.ref)) return;
    checkHookRef(hook.ref, this.assistants.for(agent, hook.ref), hook.blame);
    this.checked.add(hook.ref);
  }
}

/** A case's `before`/`after` field names a hook unless it is absent, null or empty. */
function isNamed(field: unknown): boolean {
  return field !== undefined && field !== null && field !== '';
}
