import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HISTORY_FORMAT, HistoryStore, recordId, type HistoryRecord } from '../src/index.js';

function record(at: number, cases = 1, extra: Partial<HistoryRecord> = {}): HistoryRecord {
  const started = new Date(Date.UTC(2026, 0, 1, 0, 0, at));
  return {
    format: HISTORY_FORMAT,
    version: 1,
    id: recordId(started),
    input: 'cases.jsonl',
    suite: 'cases.jsonl',
    kind: 'agent',
    agent: 'echo',
    connector: '',
    started_at: started.toISOString(),
    completed_at: started.toISOString(),
    duration_ms: 1,
    runs_per_case: 1,
    complete: true,
    totals: { total: cases, passed: cases, failed: 0, errors: 0, timeouts: 0, skipped: 0 },
    cases: Array.from({ length: cases }, (_, i) => ({
      id: `case-${i}`,
      status: 'passed' as const,
      duration_ms: 1,
      runs: [{ status: 'passed' as const, duration_ms: 1 }],
    })),
    ...extra,
  };
}

const tempDir = () => join(mkdtempSync(join(tmpdir(), 'agentest-history-')), 'history');

test('records are plain JSON files, one per run, listed oldest first', async () => {
  const store = new HistoryStore(tempDir());
  assert.deepEqual((await store.list()).records, [], 'a missing folder is an empty history');
  await store.append(record(2));
  await store.append(record(1));
  const files = readdirSync(store.dir);
  assert.equal(files.length, 2);
  assert.ok(
    files.every((f) => /^\d{8}T\d{9}Z-[0-9a-z]+\.json$/.test(f)),
    files.join(),
  );
  const { records } = await store.list();
  assert.deepEqual(
    records.map((r) => r.started_at),
    ['2026-01-01T00:00:01.000Z', '2026-01-01T00:00:02.000Z'],
  );
});

test('the oldest runs are removed beyond maxRuns, and beyond maxBytes', async () => {
  const byCount = new HistoryStore(tempDir(), { maxRuns: 3 });
  for (let i = 0; i < 5; i++) await byCount.append(record(i));
  assert.deepEqual(
    (await byCount.list()).records.map((r) => r.started_at.slice(17, 19)),
    ['02', '03', '04'],
  );
  const one = Buffer.byteLength(`${JSON.stringify(record(0, 20))}\n`);
  const bySize = new HistoryStore(tempDir(), { maxBytes: one * 2 + 10 });
  for (let i = 0; i < 4; i++) await bySize.append(record(i, 20));
  assert.deepEqual(
    (await bySize.list()).records.map((r) => r.started_at.slice(17, 19)),
    ['02', '03'],
  );
});

test('a record larger than maxBytes is refused with the reason, and the history stays as it was', async () => {
  const store = new HistoryStore(tempDir(), { maxBytes: 2048 });
  await store.append(record(0));
  await assert.rejects(store.append(record(1, 100)), /more than history\.maxBytes \(2048\); raise the limit/);
  assert.equal((await store.list()).records.length, 1);
});

test('files that are not history records are reported, not fatal; other files in the folder are left alone', async () => {
  const store = new HistoryStore(tempDir());
  await store.append(record(0));
  writeFileSync(join(store.dir, '20260101T000009000Z-broken.json'), '{"half":');
  writeFileSync(join(store.dir, '20260101T000010000Z-other.json'), '{"format":"something else"}');
  writeFileSync(join(store.dir, 'notes.txt'), 'mine');
  const { records, unreadable } = await store.list();
  assert.equal(records.length, 1);
  assert.deepEqual(
    unreadable.map((u) => u.file),
    ['20260101T000009000Z-broken.json', '20260101T000010000Z-other.json'],
  );
  assert.match(unreadable[1]!.reason, /not an agentest history record/);
  assert.ok(readdirSync(store.dir).includes('notes.txt'));
});

test('a record removed between the listing and its read (another run of the project pruned it) is skipped without a warning', async () => {
  const store = new HistoryStore(tempDir());
  await store.append(record(0));
  // A name the folder lists whose file cannot be found when read: what a concurrent prune leaves this reader.
  symlinkSync(join(store.dir, 'pruned-meanwhile'), join(store.dir, '20260101T000009000Z-pruned.json'));
  const { records, unreadable } = await store.list();
  assert.equal(records.length, 1);
  assert.deepEqual(unreadable, []);
});

test('a history folder that cannot be made makes append reject, for the caller to warn about', async () => {
  const parent = mkdtempSync(join(tmpdir(), 'agentest-history-'));
  writeFileSync(join(parent, 'history'), 'a file where the folder should be');
  await assert.rejects(new HistoryStore(join(parent, 'history')).append(record(0)), /EEXIST|ENOTDIR/);
});

test('a record is written as it goes: one line of JSON, its fields before and after the cases, read back whole', async () => {
  const store = new HistoryStore(tempDir());
  const writer = await store.begin('20260101T000000000Z-abcdef', { input: 'cases.jsonl', runs_per_case: 1 });
  await writer.add({ id: 'a', status: 'passed', duration_ms: 1, runs: [{ status: 'passed' }] });
  await writer.add({ id: 'b', status: 'failed', duration_ms: 2, runs: [{ status: 'failed' }], message: 'no' });
  assert.deepEqual((await store.list()).records, [], 'nothing is listed until the record is complete');
  const { file } = await writer.finish({ complete: true });
  const text = readFileSync(file, 'utf8');
  assert.equal(text.split('\n').length, 2, 'one line and its newline');
  assert.deepEqual(JSON.parse(text), {
    format: HISTORY_FORMAT,
    version: 1,
    id: '20260101T000000000Z-abcdef',
    input: 'cases.jsonl',
    runs_per_case: 1,
    cases: [
      { id: 'a', status: 'passed', duration_ms: 1, runs: [{ status: 'passed' }] },
      { id: 'b', status: 'failed', duration_ms: 2, runs: [{ status: 'failed' }], message: 'no' },
    ],
    complete: true,
  });
});

test('records left half-written by a process that is gone are removed; those of a running one stay', async () => {
  const store = new HistoryStore(tempDir());
  await store.append(record(0));
  const gone = spawnSync(process.execPath, ['-e', '']).pid;
  const abandoned = `20260101T000001000Z-aaaaaa.json.${gone}.tmp`;
  const running = `20260101T000002000Z-bbbbbb.json.${process.pid}.tmp`;
  writeFileSync(join(store.dir, abandoned), '{"format":"agentest-history","cases":[');
  writeFileSync(join(store.dir, running), '{"format":"agentest-history","cases":[');
  await store.append(record(3));
  const left = readdirSync(store.dir);
  assert.ok(!left.includes(abandoned));
  assert.ok(left.includes(running));
});
