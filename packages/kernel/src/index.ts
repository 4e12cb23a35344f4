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
  type LoadContext,
  type ResolveContext,
  type SuiteContext,
  type ReportTapOptions,
} from './hooks.js';
export { definePlugin, assertPlugin, orderPlugins, type AgentestPlugin, type KernelApi } from './plugin.js';
export { defineReporter, type Reporter, type DeepReadonly } from './reporter.js';
export {
  defineConfig,
  type AgentestConfig,
  type Adapter,
  type AgentConfig,
  type ConnectorConfig,
  type ReporterEntry,
} from './config.js';
export { renderErrorCatalogue } from './error-docs.js';
export { didYouMean, editDistance } from './did-you-mean.js';
export {
  AgentestError,
  PluginError,
  ERROR_CATALOGUE,
  errorMessage,
  isAgentestError,
  type ErrorCode,
} from './errors.js';
export { parseDuration, formatDuration, withoutUnit } from './duration.js';
export { caseLogs, executionLogs } from './logs.js';
export { representativeRun } from './aggregate.js';
export { isCi } from './ci.js';
export { parseJson, exactText, carryExactText, sameExactNumber } from './exact-numbers.js';
export { safeStringify, serialisable, unserialisableMarker, MAX_SERIALISED_DEPTH } from './safe-json.js';
export { goDuration } from './execute-run.js';
export { addJudgeUsage, judgeLine } from './judge-usage.js';
export { caseVariance, varianceLine } from './variance.js';
export { computeStability, classify, wilson } from './stability.js';
export { SummaryBuilder, judge } from './summary.js';
export {
  KNOWN_METRICS,
  checkThresholdNames,
  formatMetric,
  isMaxMetric,
  metricKey,
  type FormatMetricOptions,
} from './metric-names.js';
export { buildEnvironment, buildTestContext, DEFAULT_ENVIRONMENT } from './context.js';
export { runPool } from './scheduler.js';
export { registerSecret, redactSecrets, redactText, hasSecrets, findSecret, MIN_SECRET_LENGTH } from './secrets.js';
export { runScopeOf, bindRunScope, inheritRunScope, type RunScope, type CallRole } from './run-scope.js';
export type * from './types/index.js';
