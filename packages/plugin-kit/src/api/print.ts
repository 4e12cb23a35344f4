import {
  formatCaseDetail,
  formatCaseLine,
  formatMetrics,
  formatShipVerdict,
  formatSuiteFooter,
  formatSuiteHeader,
  formatSummary,
  kitPaint,
} from '../console/kit-format.js';
import { useColor } from './terminal.js';
import type { KitTestCase, Metrics, ShipabilityVerdict, TestResult, TestStatus, Thresholds } from './types.js';

/**
 * agentest-kit's terminal format, line for line. The `format*` functions are the ones the kit layout
 * prints kit suites run from the CLI with; each `print*` here prints what its `format*` returns,
 * with colour decided at the call by the one colour policy (a TTY, `NO_COLOR`, `FORCE_COLOR`).
 */
export {
  colorStatus,
  formatCaseDetail,
  formatCaseLine,
  formatMetrics,
  formatShipVerdict,
  formatSuiteHeader,
  formatSummary,
  kitIdWidth,
} from '../console/kit-format.js';

export const printSuiteHeader = (label: string, apiUrl = '') =>
  console.log(formatSuiteHeader(label, apiUrl, useColor()));
export const printSuiteFooter = () => console.log(formatSuiteFooter(useColor()));
export const printCaseDetail = (result: TestResult, tc: Pick<KitTestCase, 'expected_keywords'>) =>
  formatCaseDetail(result, tc, useColor()).forEach((l) => console.log(l));
export const printSummary = (results: readonly TestResult[], getStatus: (r: TestResult) => TestStatus) =>
  console.log(formatSummary(results, getStatus, useColor()));
export const printMetrics = (metrics: Metrics, thresholds?: Thresholds, label?: string) =>
  formatMetrics(metrics, thresholds, label, useColor()).forEach((l) => console.log(l));
export const printShipVerdict = (ship: ShipabilityVerdict) =>
  formatShipVerdict(ship, useColor()).forEach((l) => console.log(l));

/**
 * One case line; on a terminal it first clears the progress line (never in pipes or CI logs).
 * `idWidth` (`kitIdWidth(tests)`) widens the id column so that test-function rows line up.
 */
export function printCaseLine(
  result: TestResult,
  tc: Pick<KitTestCase, 'id' | 'name'>,
  status: TestStatus,
  idWidth?: number,
): void {
  if (process.stdout.isTTY) process.stdout.write('\x1b[2K');
  console.log(formatCaseLine(result, tc, status, useColor(), idWidth));
}

/** A transient progress line, on a terminal only. */
export function writeProgress(message: string): void {
  if (process.stdout.isTTY) process.stdout.write(`${kitPaint(useColor())(`  ${message}`, 'dim')}\r`);
}
