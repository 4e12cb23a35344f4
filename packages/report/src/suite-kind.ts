import type { DeepReadonly, StartEvent } from '@agentest/kernel';

/**
 * What kind of suite a run was, which decides how reports lay it out: `agent` (JSONL cases and
 * direct messages sent to an agent), `script` (Yao script tests), `kit` (agentest-kit cases.json and
 * `test()` files), `dynamic` (simulated conversations) and `comparison` (one suite run against
 * several agents or a baseline).
 */
export type SuiteKind = 'agent' | 'script' | 'kit' | 'dynamic' | 'comparison';

export const SUITE_KINDS: readonly SuiteKind[] = ['agent', 'script', 'kit', 'dynamic', 'comparison'];

/**
 * The suite kind a run's `start` event announces. A suite names its kind in `meta.mode` when it is
 * one of the kinds (plugin-kit's suites say `kit`); otherwise the kernel's case kind decides:
 * `script` suites need no agent, everything else is an agent suite.
 */
export function suiteKindOf(start: Pick<DeepReadonly<StartEvent>, 'kind' | 'meta'> | undefined): SuiteKind {
  const mode = start?.meta?.mode;
  if (typeof mode === 'string' && (SUITE_KINDS as readonly string[]).includes(mode)) return mode as SuiteKind;
  return start?.kind === 'script' ? 'script' : 'agent';
}

/** Script suites: the script id (`scripts.expense.setup`) and the test file it resolved to. */
export interface ScriptSuiteInfo {
  script: string;
  script_path?: string;
}

/** What a script suite's `start.meta` says about its script, read once here instead of in every reporter. */
export function scriptSuiteInfo(start: Pick<DeepReadonly<StartEvent>, 'meta' | 'suite'>): ScriptSuiteInfo {
  const meta = start.meta ?? {};
  const path = meta.script_path ?? meta.test_path ?? meta.path;
  return {
    script: typeof meta.script === 'string' ? meta.script : start.suite,
    ...(typeof path === 'string' && path ? { script_path: path } : {}),
  };
}
