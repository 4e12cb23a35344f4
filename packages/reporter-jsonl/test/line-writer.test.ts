import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LineWriter } from '../src/line-writer.js';

const scratch = () => join(mkdtempSync(join(tmpdir(), 'line-writer-')), 'deep/out.jsonl');

test('lines of every size and script reach the file whole and in order, waited for or not', async () => {
  const { default: fc } = await import('fast-check');
  const piece = fc.oneof(
    fc.string({ maxLength: 200 }),
    fc.string({ unit: 'grapheme', maxLength: 300 }),
    fc.nat({ max: 200_000 }).map((n) => 'é€😀x'.repeat(Math.ceil(n / 4)).slice(0, n)),
    fc.nat({ max: 70_000 }).map((n) => 'a'.repeat(n)),
  );
  await fc.assert(
    fc.asyncProperty(fc.array(fc.tuple(piece, fc.boolean()), { maxLength: 60 }), async (lines) => {
      const path = scratch();
      const writer = new LineWriter(path);
      await writer.open();
      const pending: Promise<void>[] = [];
      for (const [line, wait] of lines) {
        const answer = writer.write(line);
        // Some callers wait for room, some (other lanes) keep writing meanwhile.
        if (answer && wait) await answer;
        else if (answer) pending.push(answer);
      }
      await Promise.all(pending);
      await writer.close();
      // Compared as bytes: a lone surrogate is written as U+FFFD, as any UTF-8 encoder writes it.
      const same = readFileSync(path).equals(Buffer.from(lines.map(([line]) => `${line}\n`).join('')));
      assert.ok(same, `the file differs from the ${lines.length} lines written`);
    }),
    { numRuns: 60 },
  );
});

test('a million short lines stay in order, and a writer that outpaces the file is asked to wait', async () => {
  const path = scratch();
  const writer = new LineWriter(path);
  await writer.open();
  let waited = 0;
  for (let i = 0; i < 1_000_000; i++) {
    const answer = writer.write(`{"n":${i}}`);
    if (answer) {
      waited++;
      await answer;
    }
  }
  await writer.close();
  const lines = readFileSync(path, 'utf8').split('\n');
  assert.equal(lines.pop(), '');
  assert.equal(lines.length, 1_000_000);
  assert.ok(lines.every((line, i) => line === `{"n":${i}}`));
  assert.ok(waited > 0, 'a writer that outpaces the file is asked to wait');
});
