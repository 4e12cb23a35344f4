/**
 * `@agentest/test/kit`: agentest-kit's programmatic API on the kernel, so that an `evaluator.js`
 * written for agentest-kit runs with only its import changed to `@agentest/test/kit`: `runSuite`,
 * the case sources, the metrics and the ship verdict, the print functions, and `test`/`expect`.
 */
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
export { defineAdapter, type Adapter } from '@agentest/plugin-agent';
export { expect, AssertionError } from '@agentest/expect';
