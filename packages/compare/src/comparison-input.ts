import type { Status } from '@agentest/kernel';

/** One run of one case, as much of it as a comparison needs. */
export interface RunRecord {
  status: Status;
  durationMs?: number;
  /** Total tokens of the run (`usage.total_tokens`, or prompt + completion), when recorded. */
  tokens?: number;
  /** The run's cost (`cost_usd` or `cost` metric), when recorded. */
  cost?: number;
}

/** One case of a report: its runs and why it failed. */
export interface CaseRecord {
  id: string;
  name?: string;
  /** The case's status: with several runs, the worst run's. */
  status: Status;
  runs: RunRecord[];
  /** The error and the failed assertions' messages, first ones first, without repeats. */
  messages: string[];
}

/**
 * Any agentest report (the `.jsonl` stream or the `.json` document, of any suite kind) reduced to
 * what a comparison reads. Cases are keyed by id, in report order.
 */
export interface ComparisonInput {
  /** The report file as the user named it. */
  file: string;
  format: 'jsonl' | 'json' | 'history';
  /** What was run: the `-i` input (a file, a directory, a script id). */
  suite: string;
  /** `agent` or `script`. */
  kind: string;
  agent?: string;
  connector?: string;
  runsPerCase: number;
  startedAt?: string;
  /** False when the run was interrupted, stopped by a budget, or its stream ends before the summary. */
  complete: boolean;
  cases: Map<string, CaseRecord>;
}

/** Passed runs count 1, failed, error and timeout 0; skipped runs are not outcomes at all. */
export function outcomes(record: CaseRecord): number[] {
  return record.runs.filter((run) => run.status !== 'skipped').map((run) => (run.status === 'passed' ? 1 : 0));
}
