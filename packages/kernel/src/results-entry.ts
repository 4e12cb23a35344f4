/*
 * `@agentest/kernel/results`: the rules a result is built by, for plugins and reporters that build or
 * read one the way the kernel does: the summary's counts, the judge account of an execution, the run
 * that represents a case, the `--run` selection of cases, and whether a case ran with no assertion.
 */
export { SummaryBuilder } from './summary.js';
export { addJudgeUsage } from './judge-usage.js';
export { representativeRun } from './aggregate.js';
export { matches as matchesRunFilter } from './select-cases.js';
export { isUnasserted } from './unasserted.js';
