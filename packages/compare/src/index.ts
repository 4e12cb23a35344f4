export * from './stats/index.js';
export { readReport } from './read-report.js';
export { compareReports, type CompareOptions } from './compare-reports.js';
export type { ComparisonInput, CaseRecord, RunRecord } from './comparison-input.js';
export * from './comparison.js';
export { formatP, points } from './suite-verdict.js';
export * from './render/index.js';
export { baselinePlugin, type BaselineOptions } from './baseline-plugin.js';
export { sprtRunPolicy, SEQUENTIAL_DEFAULTS } from './sprt-policy.js';
