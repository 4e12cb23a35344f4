import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { IdSet } from '../src/id-set.js';
import { jsonlSuite } from '../src/jsonl-suite.js';

test('IdSet: every new id is new, every repeated id is seen, across many growths', () => {
  const ids = new IdSet();
  const n = 200_000;
  for (let i = 0; i < n; i++) assert.equal(ids.add(`C${i}`), false, `C${i} reported as seen`);
  for (let i = 0; i < n; i += 997) assert.equal(ids.add(`C${i}`), true, `C${i} not reported`);
  assert.equal(ids.add(''), false);
  assert.equal(ids.add(''), true);
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
    (error: Error & { code?: string }) => error.code === 'DUPLICATE_CASE_ID' && error.message === 'cases.jsonl:50001: duplicate id "T1234" (first used on line 1235) — give every case a unique id',
  );
  assert.equal(count, 50_000);
});
