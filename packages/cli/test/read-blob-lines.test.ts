/**
 * A blob's result lines are known by their start, their id and kind read without parsing them: proven
 * equal to the full parse on ids and kinds of every shape and script, either line end, lines across read
 * chunks of every size (a multi-byte character cut by a chunk), resumed cases, stopped cases and a last
 * line cut short.
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
  // Plain, escaped and non-ASCII ids and kinds, one that looks like a key; lines longer than a read
  // chunk, and lines across chunks.
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
  for (const [eol, chunkBytes] of [
    ['\n', undefined],
    ['\r\n', undefined],
    ['\n', 1 << 20],
    ['\r\n', 1 << 20],
    ['\r\n', 97],
  ] as const) {
    const file = join(dir, `eol-${eol.length}.jsonl`);
    writeFileSync(file, [header, ...lines].join(eol) + eol);
    const read = await readBlob(file, 'b.jsonl', chunkBytes);
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

/** A finished result line as the blob writer writes it (a lean line's keys after the head). */
const resultLine = (id: string, kind: string, note: string) =>
  JSON.stringify({
    type: 'result',
    id,
    kind,
    input: note,
    status: 'passed',
    output: `said ${note}`,
    assertions: [],
    metrics: {},
    blob_run: ['run', 'status', 'output', 'assertions', 'metrics'],
  });

const stoppedLine = (id: string, kind: string) =>
  JSON.stringify({
    type: 'result',
    id,
    kind,
    status: 'error',
    runs: [{ run: 1, status: 'error', error: 'run interrupted', duration_ms: 1, assertions: [], metrics: {} }],
  });

test('a blob read in chunks of any size keeps the same lines: every script, either line end, resumed and stopped cases, a cut last line', async () => {
  const { default: fc } = await import('fast-check');
  const dir = mkdtempSync(join(tmpdir(), 'agentest-blob-chunks-'));
  const text = fc.oneof(fc.string({ maxLength: 12 }), fc.string({ unit: 'grapheme', maxLength: 12 }));
  const entry = fc.record({
    id: text,
    kind: fc.constantFrom('agent', 'kit', 'spéc 😀', 'a"b'),
    note: text,
    stopped: fc.boolean(),
  });
  await fc.assert(
    fc.asyncProperty(
      fc.array(entry, { minLength: 1, maxLength: 30 }),
      fc.constantFrom('\n', '\r\n'),
      fc.integer({ min: 1, max: 400 }),
      fc.nat(),
      async (entries, eol, chunkBytes, cut) => {
        const lines = entries.map(({ id, kind, note, stopped }) =>
          stopped ? stoppedLine(id, kind) : resultLine(id, kind, note),
        );
        // A shard killed mid-write leaves a new case's line cut short, without its line end.
        const last = resultLine('the last case', 'agent', 'cut');
        const cutShort = last.slice(0, 1 + (cut % (last.length - 1)));
        const ids = [...new Set(entries.map(({ id }) => id)), 'the last case'];
        const header = JSON.stringify({ ...shardHeader(1, ids), suite_cases: ids.length });
        const file = join(dir, 'blob.jsonl');
        writeFileSync(file, [header, ...lines].join(eol) + eol + cutShort);
        // What the full parse of each line says: a later finished line of a case wins, a stopped one is not finished.
        const expected = new Map<string, { text: string; kind: string; line: number }>();
        lines.forEach((line, i) => {
          if (!entries[i]!.stopped) expected.set(entries[i]!.id, { text: line, kind: entries[i]!.kind, line: i + 2 });
        });
        const read = await readBlob(file, 'blob.jsonl', chunkBytes);
        assert.deepEqual([...read.results.keys()], [...expected.keys()]);
        for (const [id, recorded] of read.results) {
          const { text: line, kind, line: number } = expected.get(id)!;
          assert.equal(recorded.text, line);
          assert.equal(recorded.kind, kind);
          assert.equal(recorded.line, number);
          assert.equal(parseRecorded('blob.jsonl', recorded).id, id);
        }
      },
    ),
    { numRuns: 150 },
  );
});

test('a broken line in the middle names its line, however the blob is cut into chunks', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'agentest-blob-chunks-'));
  const header = JSON.stringify({ ...shardHeader(1, ['ä', 'b']), suite_cases: 2 });
  const file = join(dir, 'broken.jsonl');
  writeFileSync(
    file,
    `${header}\r\n${resultLine('ä', 'agent', 'ü')}\r\n{"type":"res\r\n${resultLine('b', 'agent', 'x')}\r\n`,
  );
  for (const chunkBytes of [1, 7, 64, 4096, undefined])
    await assert.rejects(readBlob(file, 'broken.jsonl', chunkBytes), /broken\.jsonl:3: not a JSON object/);
});
