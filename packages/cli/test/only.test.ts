import { test } from 'node:test';
import assert from 'node:assert/strict';
import { agentest, fixture } from './helpers.js';

test('on CI a test.only fails the run naming its file and line, unless --allow-only', async () => {
  const dir = fixture({
    'suite/cases.json': '[{ "case_id": "J1", "query": "hello" }]',
    'suite/tests/focus.test.ts':
      "import { test } from '@agentest/test';\n\ntest('ordinary', async () => {});\ntest.only('focused', async () => {});\n",
  });
  const [ci, allowed, local] = await Promise.all([
    agentest(['test', '-i', 'suite', '-n', 'echo', '--no-jsonl'], { cwd: dir, env: { CI: 'true' } }),
    agentest(['test', '-i', 'suite', '-n', 'echo', '--no-jsonl', '--allow-only'], { cwd: dir, env: { CI: 'true' } }),
    agentest(['test', '-i', 'suite', '-n', 'echo', '--no-jsonl'], { cwd: dir, env: { CI: '' } }),
  ]);
  assert.equal(ci.code, 2, ci.stdout + ci.stderr);
  assert.match(
    ci.stderr,
    /^error\[ONLY_FORBIDDEN\]: suite\/tests\/focus\.test\.ts:4: test\.only\("focused"\) would skip every other case/,
  );
  assert.doesNotMatch(ci.stdout, /PASS|FAIL/, 'refused before the first case');
  assert.equal(allowed.code, 0, allowed.stderr);
  assert.match(allowed.stdout, /Tests: {2}1 passed \| 2 skipped/);
  assert.equal(local.code, 0, local.stderr);
});
