/**
 * A blob's result lines are known by their start, their id and kind read without parsing them: proven
 * equal to the full parse on ids and kinds of every shape, either line end, and lines across read chunks.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ResultEvent } from '@agentest/kernel';
import { parseRecorded, readBlob } from '../src/blob/read-blob.js';
import { shardHeader } from './blob-headers.js';

test("each result line's id and kind, read from its start, are the full parse's, whatever the line ends and chunks", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'agentest-blob-'));
  // Plain, escaped and non-ASCII ids and kinds, one that looks like a key; one line longer than a read
  // chunk (1 MiB), and lines across chunks.
  const ids = ['plain', 'a"quote', 'back\\slash', 'tab\tx', 'ünï😀', '","kind":"x', 'long-1', 'long-2', 'short'];
  const kinds = ['agent', 'kit', 'my "kind"', 'agent', 'spec', 'agent', 'agent', 'script', 'agent'];
  const lines = ids.map((id, i) =>
    JSON.stringify({
      type: 'result',
      id,
      kind: kinds[i],
      input: id.startsWith('long') ? 'x'.repeat(id === 'long-2' ? 1_300_000 : 700_000) : id,
      status: 'passed',
      runs: [{ run: 1, status: 'passed', duration_ms: 1, assertions: [], metrics: {} }],
    }),
  );
  const header = JSON.stringify({ ...shardHeader(1, ids), suite_cases: ids.length });
  for (const eol of ['\n', '\r\n']) {
    const file = join(dir, `eol-${eol.length}.jsonl`);
    writeFileSync(file, [header, ...lines].join(eol) + eol);
    const read = await readBlob(file, 'b.jsonl');
    assert.deepEqual([...read.results.keys()], ids);
    for (const [i, id] of ids.entries()) {
      const recorded = read.results.get(id)!;
      assert.equal(recorded.text, lines[i], `${id}: the line as written`);
      assert.equal(recorded.kind, kinds[i], `${id}: its kind`);
      assert.equal(recorded.line, i + 2);
      const parsed = JSON.parse(lines[i]!) as ResultEvent;
      assert.deepEqual(parseRecorded('b.jsonl', recorded), parsed);
      assert.equal(parsed.id, id);
    }
  }
});
