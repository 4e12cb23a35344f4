import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Status, TestCase } from '@agentest/kernel';
import { failedFirst, failedIds, latestRun, type HistoryRecord } from '../src/index.js';

/** A run of cases.jsonl: id → status and duration. */
function run(at: string, cases: Record<string, [Status, number]>, complete = true): HistoryRecord {
  return {
    format: 'agentest-history',
    version: 1,
    id: at,
    input: 'cases.jsonl',
    suite: 'cases.jsonl',
    kind: 'agent',
    agent: 'echo',
    connector: '',
    started_at: at,
    completed_at: at,
    duration_ms: 1,
    runs_per_case: 1,
    complete,
    totals: { total: 0, passed: 0, failed: 0, errors: 0, timeouts: 0, skipped: 0 },
    cases: Object.entries(cases).map(([id, [status, duration_ms]]) => ({
      id,
      status,
      duration_ms,
      runs: [{ status, duration_ms }],
    })),
  };
}

const testCase = (id: string): TestCase => ({ id, kind: 'agent', input: id, source: { file: 'cases.jsonl' } });

test('failed-first: last failed, then flaky, then the rest; longest first within each group; unknown cases lead their group', () => {
  const records = [
    run('1', { ok: ['passed', 5], flaky: ['failed', 1], slow: ['passed', 50], broken: ['passed', 1] }),
    run('2', {
      ok: ['passed', 5],
      flaky: ['passed', 1],
      slow: ['passed', 50],
      broken: ['failed', 2],
      timeout: ['timeout', 9],
    }),
  ];
  const order = failedFirst(records, 'cases.jsonl');
  const ids = order(['ok', 'new', 'slow', 'flaky', 'broken', 'timeout'].map(testCase)).map((c) => c.id);
  assert.deepEqual(ids, ['timeout', 'broken', 'flaky', 'new', 'slow', 'ok']);
});

test('with no history the order is the file order', () => {
  const ids = failedFirst([], 'cases.jsonl')(['b', 'a', 'c'].map(testCase)).map((c) => c.id);
  assert.deepEqual(ids, ['b', 'a', 'c']);
});

test('the latest run is the latest complete one of the input; failed ids exclude passed and skipped', () => {
  const records = [run('1', { a: ['failed', 1] }), run('2', { a: ['passed', 1] }, false)];
  assert.equal(latestRun(records, 'cases.jsonl')!.id, '1');
  assert.equal(latestRun(records, 'other.jsonl'), undefined);
  assert.equal(latestRun([records[1]!], 'cases.jsonl')!.id, '2', 'an interrupted run when nothing else ran');
  const mixed = run('3', { a: ['failed', 1], b: ['error', 1], c: ['skipped', 1], d: ['passed', 1] });
  assert.deepEqual([...failedIds(mixed)], ['a', 'b']);
});
