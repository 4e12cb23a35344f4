/**
 * agentest: the package users install. Config helpers, the kernel for embedding, the CLI entry and
 * the types; `agentest test` is its binary.
 */

// Config and extension points.
export { defineConfig, definePlugin, defineReporter, createKernel, AgentestError, ERROR_CATALOGUE } from '@agentest/kernel';
export { defineAdapter, defineAgent } from '@agentest/plugin-agent';

// Embedding: the default plugin set, run plans, the CLI itself.
export { createDefaultKernel, createRunPlan, runCli, type DefaultKernelOptions, type RunPlanOptions } from '@agentest/cli';

// agentest-kit mode: `test` and `expect` are exported here by the agentest-kit package.

export type * from '@agentest/kernel';
