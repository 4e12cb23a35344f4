import type { CaseRecord, ComparisonInput } from '@agentest/compare';
import type { HistoryRecord } from './history-record.js';

/**
 * A history record as a comparison side, for `--baseline last`: the same cases, runs and reasons a
 * report would give, named `history:<id>` in the comparison.
 */
export function comparisonInput(record: HistoryRecord, shown = `history:${record.id}`): ComparisonInput {
  const cases = new Map<string, CaseRecord>();
  for (const c of record.cases)
    cases.set(c.id, {
      id: c.id,
      ...(c.name ? { name: c.name } : {}),
      status: c.status,
      runs: c.runs.map((run) => ({
        status: run.status,
        ...(run.duration_ms !== undefined ? { durationMs: run.duration_ms } : {}),
        ...(run.tokens !== undefined ? { tokens: run.tokens } : {}),
        ...(run.cost !== undefined ? { cost: run.cost } : {}),
      })),
      messages: c.message ? [c.message] : [],
    });
  return {
    file: shown,
    format: 'history',
    suite: record.suite,
    kind: record.kind,
    agent: record.agent,
    ...(record.connector ? { connector: record.connector } : {}),
    runsPerCase: record.runs_per_case,
    startedAt: record.started_at,
    complete: record.complete,
    cases,
  };
}
