/**
 * @agentest/test: the package users install; `agentest` is its binary. The config and test-file
 * API, one define helper per concept, and one way to build a kernel for embedding. agentest-kit's
 * programmatic API (`runSuite`, the print functions, the metrics) is on `@agentest/test/kit`.
 */

// The config file and `test()` files.
export { defineConfig, type AgentestConfig, type ReporterEntry } from '@agentest/cli';
export { test, skip, todo } from '@agentest/plugin-kit';
export { expect, AssertionError } from '@agentest/expect';

// One define helper per concept: agents, plugins, reporters, resolvers, loaders, assertion types, cases.
export { defineAdapter, defineAgent, type Adapter, type AgentConfig } from '@agentest/plugin-agent';
export {
  definePlugin,
  defineReporter,
  defineResolver,
  defineLoader,
  AgentestError,
  isAgentestError,
} from '@agentest/kernel';
export { ERROR_CATALOGUE } from '@agentest/kernel/errors';
export { defineAssertion, type AssertionDefinition, type AssertionPlugin } from '@agentest/plugin-assert';
export { createCase } from '@agentest/plugin-jsonl';
export type { ConnectorConfig } from '@agentest/connectors';

// Embedding: the kernel with the default plugins, run plans (cases held in memory too), the exit
// code the CLI gives an outcome, and the CLI itself.
export {
  createDefaultKernel,
  createRunPlan,
  outcomeExitCode,
  runCli,
  type DefaultKernelOptions,
  type RunPlanOptions,
} from '@agentest/cli';

export type * from '@agentest/kernel';
