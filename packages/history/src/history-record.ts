import type { Status } from '@agentest/kernel';

/** The file format's name and version, checked when a record is read back. */
export const HISTORY_FORMAT = 'agentest-history';
export const HISTORY_VERSION = 1;

/** One run of one case, as much of it as history needs. */
export interface HistoryRun {
  status: Status;
  duration_ms?: number;
  tokens?: number;
  cost?: number;
}

/** One case of a run: its status (the worst run's), its runs and, when it failed, the first reason. */
export interface HistoryCase {
  id: string;
  name?: string;
  status: Status;
  duration_ms: number;
  runs: HistoryRun[];
  message?: string;
}

/**
 * One run of a suite, as written to `.agentest/history/<id>.json`: what ran (the input, the agent,
 * connector and model, a hash of the config), where in the code (git commit and branch), and each
 * case's outcome per run. Runs of the same input, agent, connector, model and config are comparable
 * (their `lineage`); flaky detection looks only within one lineage.
 */
export interface HistoryRecord {
  format: typeof HISTORY_FORMAT;
  version: number;
  /** Sortable by time: `<UTC timestamp>-<random>`, also the file name. */
  id: string;
  /** The `-i` input, relative to the project root when it is a path there. */
  input: string;
  suite: string;
  kind: string;
  agent: string;
  connector: string;
  model?: string;
  /** sha256 of the config file's text (first 16 hex digits); absent without a config file. */
  config_hash?: string;
  git?: { commit: string; branch?: string };
  started_at: string;
  completed_at: string;
  duration_ms: number;
  runs_per_case: number;
  /** False when the run was interrupted. */
  complete: boolean;
  totals: { total: number; passed: number; failed: number; errors: number; timeouts: number; skipped: number };
  cases: HistoryCase[];
}

/** What makes two runs comparable for flaky detection: the same input, agent, connector, model and config. */
export function lineage(
  record: Pick<HistoryRecord, 'input' | 'agent' | 'connector' | 'model' | 'config_hash'>,
): string {
  return JSON.stringify([record.input, record.agent, record.connector, record.model ?? '', record.config_hash ?? '']);
}
