/**
 * The report model: what every agentest reporter reads and writes through. A reporter is a function
 * of the run's events plus this model; none imports another reporter.
 */
export { SUITE_KINDS, scriptSuiteInfo, suiteKindOf, type ScriptSuiteInfo, type SuiteKind } from './suite-kind.js';
export { ReportCollector, reportResult, type ReadonlyResult, type Report, type ReportMetadata } from './report.js';
export { gradeOf, representative, runGrade } from './representative.js';
export {
  formatBound,
  formatMetric,
  isMaxMetric,
  isShareMetric,
  meetsThreshold,
  thresholdSign,
  type FormatMetricOptions,
} from './metric-format.js';
export { metricRows, type MetricRow } from './metric-rows.js';
export { verdictPlugin, PLUGIN_NAME as VERDICT_PLUGIN_NAME } from './verdict/verdict-plugin.js';
export { judge, withVerdict } from './verdict/judge.js';
export { checkThresholdValues } from './verdict/threshold-values.js';
export { checkThresholdNames, COVERAGE_METRICS, KNOWN_METRICS, metricKey } from './verdict/metric-names.js';
export {
  STATUS_ICONS,
  caseLabel,
  capitalise,
  compactValue,
  describeInput,
  displayValue,
  failedAssertions,
  failureMessage,
  formatDuration,
  formatPercent,
  interruptionNote,
  isFailure,
  oneLine,
  shardNote,
  statusIcon,
  truncate,
} from './text.js';
export { resolveOutputPath, writeFileAtomic } from './write-file-atomic.js';
export {
  fileReporterOptionsSchema,
  parseReporterOptions,
  reporterOptionsSchema,
  type ReporterOptions,
} from './reporter-options.js';
export { defineDocumentReporter, documentReporter, type DocumentReporterSpec } from './document-reporter.js';
export { colourWanted } from './colour.js';
export { haltNote, unassertedNote, usageText } from './usage.js';
export { caseLogs } from './case-logs.js';
export { hasRobustness, robustnessLine } from './robustness-text.js';
export { judgeLine, varianceLine } from './judged-text.js';
export { renderMarkdown, type MarkdownOptions } from './markdown/render-markdown.js';
export { cell, code, fence, inline, table } from './markdown/syntax.js';
export { terminalSafe } from './terminal/terminal-safe.js';
export type { TextStream } from './terminal/text-stream.js';
export { displayWidth, fit, padEnd } from './terminal/display-width.js';
export {
  getConsoleHooks,
  layoutFor,
  type ConsoleHooks,
  type ConsoleLayout,
  type LayoutContext,
  type LayoutPrinter,
  type PaintFormat,
} from './terminal/console-layout.js';
export {
  STATUS_COLOUR,
  STATUS_WORD,
  WIDTH,
  heavyRule,
  interruptedText,
  lightRule,
  printLogLines,
} from './terminal/yao-terminal.js';
export {
  conversationSummary,
  dynamicOf,
  dynamicOfRun,
  type CheckpointResult,
  type DynamicDetails,
  type EndReason,
  type TurnRecord,
} from './dynamic.js';
export { printFlaky } from './terminal/flaky-block.js';
