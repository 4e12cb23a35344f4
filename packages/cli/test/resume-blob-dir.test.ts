import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fixture, jsonl } from './helpers.js';
import { agentestInProcess as agentest } from './in-process.js';

const NO_CI = {
  GITHUB_RUN_ID: '',
  CI_PIPELINE_ID: '',
  BUILDKITE_BUILD_ID: '',
  CIRCLE_WORKFLOW_ID: '',
  CI_NODE_INDEX: '',
};

test("--resume takes the shard's own command, --blob-dir included; another --blob-dir is refused naming both", async () => {
  const dir = fixture({
    'cases.jsonl': jsonl(
      ['a', 'b', 'c', 'd'].map((id) => ({ id, input: id, assert: { type: 'contains', value: id } })),
    ),
  });
  const shard = ['test', '-i', 'cases.jsonl', '-n', 'echo', '--shard', '1/2', '--run-id', 'r1', '--blob-dir', 'blobs'];
  const first = await agentest(shard, { cwd: dir, env: NO_CI });
  assert.equal(first.code, 0, first.stdout + first.stderr);
  const blob = 'blobs/cases-jsonl.r1.shard-1-of-2.jsonl';

  const again = await agentest([...shard, '--resume', blob], { cwd: dir, env: NO_CI });
  assert.equal(again.code, 0, again.stdout + again.stderr);

  const other = shard.map((arg) => (arg === 'blobs' ? 'other' : arg));
  const elsewhere = await agentest([...other, '--resume', blob], { cwd: dir, env: NO_CI });
  assert.equal(elsewhere.code, 2, elsewhere.stdout + elsewhere.stderr);
  assert.match(
    elsewhere.stderr,
    /error\[FLAG_INVALID\]: --blob-dir other is not the folder of the blob --resume blobs\/cases-jsonl\.r1\.shard-1-of-2\.jsonl names/,
  );
});
