import { representativeRun } from '@agentest/kernel/results';
import { type CaseResult, type DeepReadonly, type Execution } from '@agentest/kernel';

type Result = Pick<DeepReadonly<CaseResult>, 'status' | 'runs'>;

/**
 * The run that represents a case: the first run with the case's status (the kernel takes the case's
 * output, error and assertions from that run, by the same rule), else the first run. Undefined for a
 * case that never ran (skipped before its first run, or interrupted).
 */
export function representative(result: Result): DeepReadonly<Execution> | undefined {
  return representativeRun(result.runs, result.status);
}

/**
 * The finer grade an agent gave itself (agentest-kit's PASS / PARTIAL / FAIL), from the case's
 * representative run; any run's grade when that run has none.
 */
export function gradeOf(result: Result): string | undefined {
  const first = representative(result);
  return (first && runGrade(first)) ?? result.runs.map(runGrade).find(Boolean);
}

/** The grade one run reported (`details.grade`, set by graded agents), when it is a non-empty string. */
export function runGrade(run: Pick<DeepReadonly<Execution>, 'details'>): string | undefined {
  const grade = run.details?.grade;
  return typeof grade === 'string' && grade ? grade : undefined;
}
