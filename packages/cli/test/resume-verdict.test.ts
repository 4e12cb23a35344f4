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
 * A resumed shard is the shard finished: its verdict, summary and exit code cover the cases the blob
 * already holds (replayed from it, not run again), so the retry of a shard whose cases failed (a
 * Kubernetes pod retried per index, a CI job re-run) never ends as ALL TESTS PASSED with exit 0.
 */
test('--resume of a shard whose finished cases failed exits 1 and reports them, running none again', async () => {
  const dir = fixture({
    'cases.jsonl': jsonl(
      ['a', 'b', 'c', 'd'].map((id) => ({ id, input: id, assert: { type: 'contains', value: `${id}-missing` } })),
    ),
  });
  const shard = ['test', '-i', 'cases.jsonl', '-n', 'echo', '--shard', '1/1', '--run-id', 'r1', '--no-history'];
  const first = await agentest([...shard, '--blob-dir', 'blobs', '--no-jsonl'], { cwd: dir, env: NO_CI });
  assert.equal(first.code, 1, first.stdout + first.stderr);
  const blob = 'blobs/cases-jsonl.r1.shard-1-of-1.jsonl';
  const before = readFileSync(join(dir, blob), 'utf8');

  const resumed = await agentest([...shard, '--resume', blob, '-o', 'resumed.jsonl'], { cwd: dir, env: NO_CI });
  assert.equal(resumed.code, 1, resumed.stdout + resumed.stderr);
  assert.doesNotMatch(resumed.stdout, /ALL TESTS PASSED/);
  const events = readJsonl(readFileSync(join(dir, 'resumed.jsonl'), 'utf8'));
  const summary = events.find((e) => e.type === 'summary')!;
  assert.equal(summary.failed, 4, 'the summary counts the finished cases');
  assert.deepEqual(
    events.filter((e) => e.type === 'result').map((e) => [e.id, e.status]),
    ['a', 'b', 'c', 'd'].map((id) => [id, 'failed']),
  );
  const added = readJsonl(readFileSync(join(dir, blob), 'utf8').slice(before.length));
  assert.equal(added.filter((e) => e.type === 'result').length, 0, 'no finished case is written to the blob again');
  assert.deepEqual(added.find((e) => e.type === 'resume')?.cases, [], 'the resume ran no case');
});
