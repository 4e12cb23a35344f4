/**
 * @agentest/test: the package users install. Config helpers, the kernel for embedding, the CLI entry and
 * the types; `agentest test` is its binary.
 */

// Config and extension points.
export {
  defineConfig,
  definePlugin,
  defineReporter,
  createKernel,
  AgentestError,
  ERROR_CATALOGUE,
} from '@agentest/kernel';
export { defineAdapter, defineAgent } from '@agentest/plugin-agent';

// Embedding: the default plugin set, run plans, the CLI itself.
export {
  createDefaultKernel,
  createRunPlan,
  runCli,
  type DefaultKernelOptions,
  type RunPlanOptions,
} from '@agentest/cli';

// agentest-kit mode: `test()` files, `expect`, and the programmatic API of agentest-kit, so that an
// `evaluator.js` written for agentest-kit runs with only its import changed to `@agentest/test`.
export {
  test,
  skip,
  todo,
  getRegistered,
  clearRegistered,
  runSuite,
  fromJsonCases,
  fromRegistered,
  calcMetrics,
  judgeShipability,
  getTestStatus,
  printSummary,
  printMetrics,
  printShipVerdict,
  printSuiteHeader,
  printSuiteFooter,
  printCaseLine,
  printCaseDetail,
  colorStatus,
  writeProgress,
  kitIdWidth,
} from '@agentest/plugin-kit';
export type {
  TestResult,
  TestStatus,
  Metrics,
  Thresholds,
  ShipabilityVerdict,
  SuiteOptions,
  KitTestCase,
  JsonCase,
  RegisteredTest,
  TestFnContext,
  RunInput,
  RunResult,
} from '@agentest/plugin-kit';
export { expect, AssertionError } from '@agentest/expect';

export type * from '@agentest/kernel';
