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
import { workspace } from './helpers/workspace.js';

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
