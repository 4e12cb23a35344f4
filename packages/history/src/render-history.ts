import type { Status } from '@agentest/kernel';
import { caseHistory } from './flaky.js';
import { lineage, type HistoryRecord } from './history-record.js';

const MARK: Record<Status, string> = { passed: '✓', failed: '✗', error: 'E', timeout: 'T', skipped: '-' };

/** A strip of outcomes, oldest first: `✓✓✗✓` (E error, T timeout, - skipped). */
export function outcomeStrip(statuses: readonly Status[]): string {
  return statuses.map((s) => MARK[s]).join('');
}

/** `agentest history`: the runs, newest first, one line each. */
export function renderRuns(records: readonly HistoryRecord[], dir: string): string {
  if (!records.length) return `No runs recorded in ${dir} yet: every agentest test run adds one.\n`;
  const rows = [...records]
    .reverse()
    .map((r) => [
      r.started_at.replace('T', ' ').slice(0, 19),
      r.input,
      `${r.totals.passed}/${r.totals.total - r.totals.skipped} passed${r.complete ? '' : ' (interrupted)'}`,
      `${r.runs_per_case}×`,
      [r.agent, r.connector, r.model].filter(Boolean).join(' · '),
      r.git ? `${r.git.commit.slice(0, 8)}${r.git.branch ? ` ${r.git.branch}` : ''}` : '',
    ]);
  const header = ['started (UTC)', 'input', 'result', 'runs', 'agent · connector · model', 'git'];
  return `${table([header, ...rows])}\n${records.length} run${records.length === 1 ? '' : 's'} in ${dir}\n`;
}

/** `agentest history <case-id>`: the case's outcome in each run that had it, then its flakiness per lineage. */
export function renderCase(records: readonly HistoryRecord[], id: string): string | undefined {
  const seen = records.flatMap((r) => {
    const c = r.cases.find((x) => x.id === id);
    return c ? [{ record: r, case: c }] : [];
  });
  if (!seen.length) return undefined;
  const rows = seen.map(({ record, case: c }) => [
    record.started_at.replace('T', ' ').slice(0, 19),
    c.status,
    outcomeStrip(c.runs.map((r) => r.status)),
    `${Math.round(c.duration_ms)} ms`,
    record.git ? record.git.commit.slice(0, 8) : '',
    c.message ?? '',
  ]);
  const lines = [`Case ${id} in ${seen.length} run${seen.length === 1 ? '' : 's'}, oldest first:`, ''];
  lines.push(table([['started (UTC)', 'status', 'runs', 'duration', 'commit', 'reason'], ...rows]), '');
  const lineages = new Map<string, { label: string; statuses: Status[] }>();
  for (const { record, case: c } of seen) {
    const key = lineage(record);
    const entry = lineages.get(key) ?? { label: describeLineage(record), statuses: [] };
    entry.statuses.push(...c.runs.map((r) => r.status));
    lineages.set(key, entry);
  }
  for (const { label, statuses } of lineages.values()) {
    const { recent, flaky } = caseHistory(statuses);
    const verdict = flaky
      ? `FLAKY: flipped ${flaky.flips} of ${flaky.transitions} times (flip rate ${percent(flaky.flip_rate)}, 95% CI ${percent(flaky.flip_rate_ci[0])}–${percent(flaky.flip_rate_ci[1])})`
      : 'no flips';
    lines.push(`${label}: ${outcomeStrip(recent)}  ${verdict}`);
  }
  return `${lines.join('\n')}\n`;
}

function describeLineage(record: HistoryRecord): string {
  const parts = [record.input, record.agent, record.connector, record.model].filter(Boolean);
  return `${parts.join(' · ')}${record.config_hash ? ` · config ${record.config_hash.slice(0, 8)}` : ''}`;
}

function percent(value: number): string {
  return `${Math.round(value * 1000) / 10}%`;
}

/** Left-aligned columns, two spaces apart; the last column is not padded. */
function table(rows: readonly (readonly string[])[]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => [...(row[i] ?? '')].length)));
  return rows
    .map((row) =>
      row
        .map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]! + cell.length - [...cell].length)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}
