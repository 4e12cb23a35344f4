import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fixture, jsonl, readJsonl } from './helpers.js';
import { agentestInProcess as agentest } from './in-process.js';

const NO_CI = {
  CI: '',
  GITHUB_RUN_ID: '',
  CI_PIPELINE_ID: '',
  BUILDKITE_BUILD_ID: '',
  CIRCLE_WORKFLOW_ID: '',
  CI_NODE_INDEX: '',
};

/**
 * A shard a budget stopped (`--max-tokens`) recorded its cases that never ran as skipped, `not run: budget`.
 * The merge of it is a run stopped early (exit 1, `halted`, STOPPED EARLY), as the shard itself was, never
 * ALL TESTS PASSED; and a `--resume` of the shard runs those cases, which have no result of their own.
 */
test('a shard stopped by its budget: the merge is stopped early, and --resume runs the cases it left', async () => {
  const dir = fixture({
    'cases.jsonl': jsonl(['a', 'b', 'c'].map((id) => ({ id, input: `hello ${id}` }))),
    'agentest.config.json': JSON.stringify({
      agents: { bot: { connector: 'm' } },
      connectors: { m: { type: 'mock' } },
    }),
  });
  const shard = ['test', '-i', 'cases.jsonl', '-n', 'bot', '--shard', '1/1', '--run-id', 'r1', '--no-history'];
  const stopped = await agentest([...shard, '--max-tokens', '1', '--blob-dir', 'blobs', '--no-jsonl'], {
    cwd: dir,
    env: NO_CI,
  });
  assert.equal(stopped.code, 1, stopped.stdout + stopped.stderr);

  const merged = await agentest(['merge', 'blobs', '--no-history', '-o', 'merged.jsonl'], { cwd: dir, env: NO_CI });
  assert.equal(merged.code, 1, merged.stdout + merged.stderr);
  assert.doesNotMatch(merged.stdout, /ALL TESTS PASSED/);
  assert.match(merged.stdout, /STOPPED EARLY/);
  const summary = readJsonl(readFileSync(join(dir, 'merged.jsonl'), 'utf8')).find((e) => e.type === 'summary')!;
  assert.equal(summary.not_run, 2);
  assert.match(String(summary.halted), /budget \(--max-tokens 1 reached/);

  const blob = 'blobs/cases-jsonl.r1.shard-1-of-1.jsonl';
  const resumed = await agentest([...shard, '--max-tokens', '1', '--resume', blob, '-o', 'resumed.jsonl'], {
    cwd: dir,
    env: NO_CI,
  });
  assert.equal(resumed.code, 1, resumed.stdout + resumed.stderr);
  const mark = readJsonl(readFileSync(join(dir, blob), 'utf8')).find((e) => e.type === 'resume')!;
  assert.deepEqual(mark.cases, ['b', 'c'], 'the cases the budget left are run again');
});
