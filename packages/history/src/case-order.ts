import type { TestCase } from '@agentest/kernel';
import { caseHistory } from './flaky.js';
import type { HistoryRecord } from './history-record.js';

/** The latest run of an input, or undefined when it never ran; interrupted runs count only when nothing else did. */
export function latestRun(records: readonly HistoryRecord[], input: string): HistoryRecord | undefined {
  const runs = records.filter((r) => r.input === input);
  return runs.findLast((r) => r.complete) ?? runs.at(-1);
}

/** The ids of the cases that did not pass (failed, error, timeout) in a run. */
export function failedIds(record: HistoryRecord): Set<string> {
  return new Set(record.cases.filter((c) => c.status !== 'passed' && c.status !== 'skipped').map((c) => c.id));
}

/**
 * `--order failed-first`: the cases that failed in the latest run first, then the flaky ones (their
 * outcome flipped in the input's history), then the rest; within each group the longest first, by
 * the latest recorded duration, so that parallel lanes finish close together. Cases with no history
 * count as neither failed nor flaky, and go first within their group (their duration is unknown).
 */
export function failedFirst(records: readonly HistoryRecord[], input: string): (cases: TestCase[]) => TestCase[] {
  const runs = records.filter((r) => r.input === input);
  const latest = latestRun(runs, input);
  const failed = latest ? failedIds(latest) : new Set<string>();
  const statuses = new Map<string, HistoryRecord['cases'][number]['status'][]>();
  const duration = new Map<string, number>();
  for (const record of runs)
    for (const c of record.cases) {
      statuses.set(c.id, [...(statuses.get(c.id) ?? []), ...c.runs.map((r) => r.status)]);
      duration.set(c.id, c.duration_ms / Math.max(1, c.runs.length));
    }
  const group = (id: string) => (failed.has(id) ? 0 : caseHistory(statuses.get(id) ?? []).flaky ? 1 : 2);
  const length = (id: string) => duration.get(id) ?? Infinity;
  return (cases) =>
    cases
      .map((testCase, index) => ({ testCase, index }))
      .sort(
        (a, b) =>
          group(a.testCase.id) - group(b.testCase.id) ||
          length(b.testCase.id) - length(a.testCase.id) ||
          a.index - b.index,
      )
      .map(({ testCase }) => testCase);
}
