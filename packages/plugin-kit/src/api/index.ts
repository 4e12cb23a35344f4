export { runSuite } from './run-suite.js';
export { fromJsonCases, fromRegistered } from './convert.js';
export { calcMetrics, judgeShipability, getTestStatus, formatMetric, metricLabel } from './metrics.js';
export {
  colorStatus,
  formatCaseDetail,
  formatCaseLine,
  formatMetrics,
  formatShipVerdict,
  formatSuiteHeader,
  formatSummary,
  kitIdWidth,
  printCaseDetail,
  printCaseLine,
  printMetrics,
  printShipVerdict,
  printSuiteFooter,
  printSuiteHeader,
  printSummary,
  writeProgress,
} from './print.js';
export { displayWidth, useColor } from './terminal.js';
export type {
  KitTestCase,
  Metrics,
  ShipabilityVerdict,
  SuiteOptions,
  TestResult,
  TestStatus,
  Thresholds,
} from './types.js';
