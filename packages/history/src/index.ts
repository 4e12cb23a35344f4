export {
  HISTORY_FORMAT,
  HISTORY_VERSION,
  lineage,
  type HistoryRecord,
  type HistoryCase,
  type HistoryRun,
} from './history-record.js';
export { HistoryStore, HISTORY_DEFAULTS, recordId, type HistoryLimits, type HistoryListing } from './history-store.js';
export { historyPlugin, type HistoryPluginOptions } from './history-plugin.js';
export { historyCase } from './history-case.js';
export { caseHistory, FLAKY_WINDOW } from './flaky.js';
export { failedFirst, failedIds, latestRun } from './case-order.js';
export { latestDurations, type CaseDurations } from './case-durations.js';
export { comparisonInput } from './baseline-input.js';
export { gitState, configHash } from './run-identity.js';
export { outcomeStrip, renderRuns, renderCase } from './render-history.js';
