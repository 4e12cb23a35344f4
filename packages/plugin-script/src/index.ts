export { default } from './plugin.js';
export { default as script, PLUGIN_NAME } from './plugin.js';
export type { ScriptOptions, ScriptHookRefs, SandboxOptions } from './options.js';
export { sandboxOptions, sandboxOptionsSchema } from './options.js';
export { DEFAULT_SANDBOX_ENV } from './pool/sandbox-env.js';
export type {
  ScriptPool,
  ScriptPoolOptions,
  FunctionCall,
  FunctionResult,
  TestCall,
  TestOutcome,
  YaoRuntimeOptions,
  ProcessResolver,
  ProcessTarget,
} from './pool/types.js';
export { acquireScriptPool, createScriptPool, keepScriptPoolsWarm } from './pool/shared-pool.js';
export { withScriptHooks, type ScriptHooksOptions } from './script-hooks.js';
export { scriptContext, type ScriptContext } from './script-context.js';
export { resolveScriptTest, isScriptTestRef, type ResolvedScriptTest } from './resolve/script-test.js';
export { resolveScriptFunction, type ResolvedFunction } from './resolve/script-function.js';
export { yaoProcessResolver, resolveAgentScript, type ProcessStub, type YaoProcessOptions } from './resolve/process.js';
export { compileModule, type CompiledModule } from './compile/compile.js';
export { topLevelFunctions, discoverTests, type DeclaredFunction } from './compile/discover.js';
export { registerScriptLayout, ScriptLayout } from './script-layout.js';
export {
  coveragePlugin,
  applyCoverage,
  COVERAGE_PLUGIN_NAME,
  type CoveragePluginOptions,
} from './coverage/coverage-plugin.js';
export type { CoverageOutcome } from './coverage/coverage-report.js';
export {
  coverageShape,
  coverageThresholds,
  COVERAGE_KEYS,
  COVERAGE_REPORTERS,
  type CoverageConfig,
  type CoverageReporter,
} from './coverage/coverage-options.js';
