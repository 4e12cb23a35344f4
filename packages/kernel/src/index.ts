/*
 * The kernel's core contract: the kernel and its hook block, the plugin, reporter, resolver and loader
 * contracts, the error class, secret registration, and the plan a loader reads. The rest of its
 * mechanism is on subpaths grouped by concept: @agentest/kernel/errors (the catalogue and its message
 * helpers), /secrets (redaction), /run-scope (the tie between a case run and its calls) and /results
 * (the rules a result is built by). Policy lives with the plugin or the CLI that owns it; the value
 * helpers packages share are in @agentest/common, the report helpers in @agentest/report.
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
export { AgentestError, isAgentestError, type ErrorCode } from './errors.js';
export { registerSecret } from './secrets.js';
export type { RunScope, CallRole } from './run-scope.js';
export type * from './types/index.js';
export { planContextOf } from './run-context.js';
