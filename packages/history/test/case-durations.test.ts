import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Status } from '@agentest/kernel';
import { latestDurations, type HistoryCase, type HistoryRecord } from '../src/index.js';

/** A recorded run of `input` started at `at`, with its cases. */
function record(at: string, cases: HistoryCase[], input = 'cases.jsonl'): HistoryRecord {
  return {
    format: 'agentest-history',
    version: 1,
    id: at,
    input,
    suite: input,
    kind: 'agent',
    agent: 'echo',
    connector: '',
    started_at: at,
    completed_at: at,
    duration_ms: 1,
    runs_per_case: 1,
    complete: true,
    totals: { total: 0, passed: 0, failed: 0, errors: 0, timeouts: 0, skipped: 0 },
    cases,
  };
}

/** A case whose runs took these times. */
function timed(id: string, ...runs: number[]): HistoryCase {
  const status: Status = 'passed';
  return {
    id,
    status,
    duration_ms: runs.reduce((a, b) => a + b, 0),
    runs: runs.map((duration_ms) => ({ status, duration_ms })),
  };
}

test('each case takes its time from the newest run that ran it, the mean of its runs', () => {
  const records = [
    record('2026-01-01', [timed('a', 100), timed('b', 200), timed('gone', 999)]),
    // The suite in two shards: each record holds a part, run with --runs 2.
    record('2026-01-02', [timed('a', 10, 30)]),
    record('2026-01-03', [timed('b', 40, 60)]),
    record('2026-01-04', [timed('a', 5)], 'other.jsonl'),
  ];
  const found = latestDurations(records, 'cases.jsonl');
  assert.deepEqual(Object.fromEntries(found.durations), { a: 20, b: 50, gone: 999 });
  assert.equal(found.runs, 3, 'the two shard runs and the older run that still knows "gone"');
  assert.equal(found.latest, '2026-01-03');
});

test('skipped cases and runs have no time; a run without per-run times falls back on the case time', () => {
  const skipped: HistoryCase = { id: 'a', status: 'skipped', duration_ms: 0, runs: [{ status: 'skipped' }] };
  const partly: HistoryCase = {
    id: 'b',
    status: 'passed',
    duration_ms: 90,
    runs: [{ status: 'passed' }, { status: 'passed' }, { status: 'skipped' }],
  };
  const records = [record('2026-01-01', [timed('a', 70)]), record('2026-01-02', [skipped, partly])];
  assert.deepEqual(Object.fromEntries(latestDurations(records, 'cases.jsonl').durations), { a: 70, b: 45 });
});

test('an input that never ran has no durations', () => {
  assert.deepEqual(latestDurations([record('2026-01-01', [timed('a', 1)])], 'new.jsonl'), {
    durations: new Map(),
    runs: 0,
  });
});
