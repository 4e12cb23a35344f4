import type { HistoryCase, HistoryRecord } from './history-record.js';

/** Each case's time per run as the history last recorded it, and how many of the input's runs that took. */
export interface CaseDurations {
  /** Case id → milliseconds per run, from the latest run of the input that ran the case. */
  durations: Map<string, number>;
  /** How many recorded runs the durations come from (a sharded suite's latest runs each hold a part). */
  runs: number;
  /** When the newest of those runs started. */
  latest?: string;
}

/**
 * The time each case of an input took in the latest run that ran it, newest record first: a suite run
 * in shards records each part in its own run, and a `--last-failed` run only some cases, so no single
 * record need hold them all. A case's time is the mean of its runs, not their sum, so that runs made
 * with different `--runs` compare; a skipped case has no time.
 */
export function latestDurations(records: readonly HistoryRecord[], input: string): CaseDurations {
  const found: CaseDurations = { durations: new Map(), runs: 0 };
  for (const record of [...records].reverse()) {
    if (record.input !== input) continue;
    let used = false;
    for (const c of record.cases) {
      if (found.durations.has(c.id)) continue;
      const perRun = durationPerRun(c);
      if (perRun === undefined) continue;
      found.durations.set(c.id, perRun);
      used = true;
    }
    if (!used) continue;
    found.runs++;
    found.latest ??= record.started_at;
  }
  return found;
}

function durationPerRun(c: HistoryCase): number | undefined {
  const ran = c.runs.filter((run) => run.status !== 'skipped');
  if (c.status === 'skipped' || !ran.length) return undefined;
  const timed = ran.filter((run) => typeof run.duration_ms === 'number');
  if (!timed.length) return c.duration_ms / ran.length;
  return timed.reduce((sum, run) => sum + run.duration_ms!, 0) / timed.length;
}
