/**
 * With one run per case, a shard's blob holds each case's line as its `.jsonl` report writes it, and
 * `agentest merge` writes those lines through unchanged: the merged report's result lines are the
 * shards' own, byte for byte, in suite order.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, stackFrames } from './helpers/cli.js';
import { NO_CI, writeDeterministicProject } from './helpers/sharded-suite.js';
import { workspace, writeCases } from './helpers/workspace.js';

const IDS = Array.from({ length: 12 }, (_, i) => `case-${String(i).padStart(2, '0')}`);

function resultLines(file: string): string[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('{"type":"result"'));
}

test("with one run per case the merged .jsonl report's result lines are the shards' own, byte for byte", async () => {
  const dir = workspace('merge-lean');
  writeDeterministicProject(dir, IDS);
  // The shards and the merge read the same (empty) history and record nothing, so each case's history is the same.
  const args = ['test', '-i', 'cases.jsonl', '-n', 'det', '--no-history', '--run-id', 'lean', '--blob-dir', 'blobs'];
  const shards = await Promise.all(
    [1, 2].map((i) => runCli([...args, '--shard', `${i}/2`, '-o', `shard-${i}.jsonl`], { cwd: dir, env: NO_CI })),
  );
  for (const shard of shards) assert.ok(shard.code === 0 || shard.code === 1, shard.stderr);
  for (const blob of readdirSync(join(dir, 'blobs')))
    for (const line of resultLines(join(dir, 'blobs', blob))) assert.match(line, /,"blob_run":\["run",/);

  const merged = await runCli(['merge', 'blobs', '--no-history', '-o', 'merged.jsonl'], { cwd: dir, env: NO_CI });
  assert.deepEqual(stackFrames(merged.stderr), [], 'no stack trace');
  assert.ok(merged.code === 0 || merged.code === 1, merged.stderr);
  const byId = new Map(
    [1, 2].flatMap((i) => resultLines(join(dir, `shard-${i}.jsonl`))).map((line) => [JSON.parse(line).id, line]),
  );
  assert.deepEqual(
    resultLines(join(dir, 'merged.jsonl')),
    IDS.map((id) => byId.get(id)),
  );
});

test("a merge whose reports need only the passed cases' indexes writes the report a merge parsing every line writes", async () => {
  const dir = workspace('merge-index');
  // No config: the built-in echo agent, so nothing of the config's own hears the merge. A third of the cases fail.
  const cases = IDS.map((id, i) => ({
    id,
    input: `${id} says hi`,
    assert: { type: 'contains', value: i % 3 ? id : 'x' },
  }));
  writeCases(dir, 'cases.jsonl', cases);
  const args = ['test', '-i', 'cases.jsonl', '-n', 'echo', '--no-history', '--run-id', 'idx', '--blob-dir', 'blobs'];
  for (const i of [1, 2]) {
    const shard = await runCli([...args, '--shard', `${i}/2`, '--no-jsonl'], { cwd: dir, env: NO_CI });
    assert.ok(shard.code === 0 || shard.code === 1, shard.stderr);
  }
  const indexed = readdirSync(join(dir, 'blobs')).flatMap((blob) =>
    resultLines(join(dir, 'blobs', blob)).filter((line) => line.includes(',"blob_case":{')),
  );
  assert.equal(indexed.length, 8, 'each passed case has an index');
  const merge = (outputs: string[]) =>
    runCli(['merge', 'blobs', '--no-history', ...outputs.flatMap((o) => ['-o', o])], { cwd: dir, env: NO_CI });
  // The JSONL report and the console alone: the passed cases are replayed from their indexes.
  const lean = await merge(['lean.jsonl']);
  // A JSON report as well needs every result whole: every line is parsed.
  const whole = await merge(['whole.jsonl', 'whole.json']);
  assert.deepEqual(stackFrames(lean.stderr), [], 'no stack trace');
  assert.equal(lean.code, 1, lean.stderr);
  assert.equal(whole.code, 1, whole.stderr);
  assert.equal(readFileSync(join(dir, 'lean.jsonl'), 'utf8'), readFileSync(join(dir, 'whole.jsonl'), 'utf8'));
  // The same console but for the report files it names.
  const printed = (out: string) => out.replace(/^ {2}Output: .*\n/gm, '');
  assert.equal(printed(lean.stdout), printed(whole.stdout));
});
