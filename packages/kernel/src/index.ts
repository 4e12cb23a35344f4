/*
 * The kernel's mechanism: the kernel and its hook block, the plugin and reporter contracts, the one
 * error catalogue, secret redaction, run scopes, and the rules a result is built by (the summary's
 * counts, the judge account, the run that represents a case, the --run selection). Policy (Yao's
 * context, the config file, the ship verdict, exit codes, Go-style durations) lives with the plugin or
 * the CLI that owns it; the value helpers packages share are in @agentest/common, the report helpers
 * in @agentest/report, and the error-message helpers on @agentest/kernel/errors.
 */
export { Kernel, createKernel, type RunSignals } from './kernel.js';
export {
  createHooks,
  type KernelHooks,
  type PublicHooks,
  type PublicHook,
  type PublicHookMap,
  type ExecuteContext,
  type AssertInput,
  type AssertTapOptions,
  type ExecuteTapOptions,
  type HelperUse,
  type LoadContext,
  type ResolveContext,
  type SuiteContext,
  type SummaryContext,
  type ReportTapOptions,
} from './hooks.js';
export {
  definePlugin,
  checkPluginShape,
  type AgentestPlugin,
  type AgentestConfigExtensions,
  type KernelApi,
} from './plugin.js';
export { defineReporter, type Reporter, type DeepReadonly } from './reporter.js';
export { defineResolver, defineLoader, type ResolverDefinition, type LoaderDefinition } from './define-plugins.js';
export { AgentestError, ERROR_CATALOGUE, errorMessage, isAgentestError, type ErrorCode } from './errors.js';
export { representativeRun } from './aggregate.js';
export { matches as matchesRunFilter } from './select-cases.js';
export { addJudgeUsage } from './judge-usage.js';
export { SummaryBuilder } from './summary.js';
export { registerSecret, redactText, redactSecrets, findSecret } from './secrets.js';
export { runScopeOf, bindRunScope, inheritRunScope, type RunScope, type CallRole } from './run-scope.js';
export type * from './types/index.js';
export { planContextOf } from './run-context.js';
