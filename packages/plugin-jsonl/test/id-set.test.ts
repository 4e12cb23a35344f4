import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { IdSet } from '../src/id-set.js';
import { jsonlSuite } from '../src/jsonl-suite.js';

test('IdSet: every new id is new and every repeated id is seen, up to its capacity', () => {
  const n = 200_000;
  const ids = new IdSet(n);
  assert.ok(ids.capacity >= n);
  for (let i = 0; i < n; i++) assert.equal(ids.add(`C${i}`), false, `C${i} reported as seen`);
  for (let i = 0; i < n; i += 997) assert.equal(ids.add(`C${i}`), true, `C${i} not reported`);
  assert.equal(ids.add(''), false);
  assert.equal(ids.add(''), true);
  const small = new IdSet(10);
  while (!small.full) small.add(`x${small.capacity}-${Math.random()}`);
  assert.ok(small.capacity >= 10);
});

test('IdSet: release() detaches the table, and the set cannot be used after it', () => {
  const ids = new IdSet(1_500_000);
  const table = (ids as unknown as { slots: Uint32Array }).slots.buffer;
  assert.equal(table.byteLength, 8 << 20, '2M slots of 4 bytes: no more than three quarters full');
  ids.add('a');
  ids.release();
  assert.equal(table.byteLength, 0);
  ids.release();
  assert.throws(() => ids.add('b'), /after release/);
});

test('a file whose first lines are much longer than the rest still finds a late duplicate', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'agentest-ids-'));
  const path = join(dir, 'cases.jsonl');
  const long = Array.from({ length: 200 }, (_, i) => JSON.stringify({ id: `L${i}`, input: 'x'.repeat(2_000) }));
  const short = Array.from({ length: 60_000 }, (_, i) => JSON.stringify({ id: `S${i}`, input: 'y' }));
  writeFileSync(path, [...long, ...short, JSON.stringify({ id: 'L7', input: 'again' })].join('\n') + '\n');
  const suite = jsonlSuite({ name: path, path, file: 'cases.jsonl', maxLineBytes: 1 << 20 });
  await assert.rejects(
    (async () => {
      for await (const _ of suite.cases());
    })(),
    (error: Error & { code?: string }) =>
      error.code === 'DUPLICATE_CASE_ID' &&
      /cases\.jsonl:60201: duplicate id "L7" \(first used on line 8\)/.test(error.message),
  );
});

test('a duplicate far into a large file is found with the line it was first used on', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'agentest-ids-'));
  const path = join(dir, 'cases.jsonl');
  const lines = Array.from({ length: 50_000 }, (_, i) => JSON.stringify({ id: `T${i}`, input: 'hi' }));
  lines.push(JSON.stringify({ id: 'T\u0031234', input: 'again' }).replace('T1234', 'T\\u0031234'));
  writeFileSync(path, lines.join('\n') + '\n');
  const suite = jsonlSuite({ name: path, path, file: 'cases.jsonl', maxLineBytes: 1 << 20 });
  let count = 0;
  await assert.rejects(
    (async () => {
      for await (const _ of suite.cases()) count++;
    })(),
    (error: Error & { code?: string }) =>
      error.code === 'DUPLICATE_CASE_ID' &&
      error.message ===
        'cases.jsonl:50001: duplicate id "T1234" (first used on line 1235) — give every case a unique id',
  );
  assert.equal(count, 50_000);
});

test('a second pass over an unchanged file skips the id bookkeeping; a changed file is checked again', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'agentest-ids-'));
  const path = join(dir, 'cases.jsonl');
  writeFileSync(path, '{"id": "a", "input": "x"}\n{"id": "b", "input": "y"}\n');
  const suite = jsonlSuite({ name: path, path, file: 'cases.jsonl', maxLineBytes: 1 << 20 });
  const ids = async () => {
    const seen: string[] = [];
    for await (const testCase of suite.cases()) seen.push(testCase.id);
    return seen;
  };
  assert.deepEqual(await ids(), ['a', 'b']);
  assert.deepEqual(await ids(), ['a', 'b']);
  writeFileSync(path, '{"id": "a", "input": "x"}\n{"id": "a", "input": "changed"}\n');
  await assert.rejects(
    ids(),
    (error: Error & { code?: string }) =>
      error.code === 'DUPLICATE_CASE_ID' &&
      /cases\.jsonl:2: duplicate id "a" \(first used on line 1\)/.test(error.message),
  );
});
