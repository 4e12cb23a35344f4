import type { CaseResult } from './types/result.js';
import type { TestCase } from './types/test-case.js';

/** The warning on the result of a case with nothing to judge its reply by (see `TestCase.unasserted`). */
export const UNASSERTED_WARNING =
  'no assertion: the case passes whatever the agent answers; add `assert` or `expected`';

/** A case its loader marked `unasserted` ran: its result says that its verdict checked nothing. */
export function noteUnasserted(result: CaseResult, testCase: TestCase): CaseResult {
  if (testCase.unasserted && result.status !== 'skipped')
    result.warnings = [UNASSERTED_WARNING, ...(result.warnings ?? [])];
  return result;
}

/** Whether a case's result carries the warning, however it was made (a run, or a merge of shards' results). */
export function isUnasserted(result: Pick<CaseResult, 'warnings'>): boolean {
  return result.warnings !== undefined && result.warnings.includes(UNASSERTED_WARNING);
}
