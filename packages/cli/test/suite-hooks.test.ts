import { test } from 'node:test';
import assert from 'node:assert/strict';
import { agentest, fixture } from './helpers.js';

/** A Yao app whose assistant keeps Yao's global hooks in src/env_test.ts. */
function app(envTest: string): string {
  return fixture({
    'app.yao': '{"name": "hooks-app"}\n',
    'assistants/hooks/package.yao': '{"name": "hooks"}\n',
    'assistants/hooks/src/env_test.ts': envTest,
    'assistants/hooks/tests/inputs.jsonl': '{"id": "H1", "input": "hello", "assert": {"type": "contains", "value": "hello"}}\n{"id": "H2", "input": "hello again", "assert": {"type": "contains", "value": "again"}}\n',
  });
}

const HOOKS = `// @ts-nocheck
export function BeforeAll(ctx, cases) { return { data: { token: 'tok-' + cases.map((c) => c.id).join('+') } }; }
export function AfterAll(ctx, results, data) {
  // AfterAll failures are warnings, logged under DEBUG: the message shows what the hook was given.
  throw new Error('after-all saw ' + data.token + ' and ' + results.map((r) => r.id + ':' + r.status).join(','));
}
export function Broken(ctx, cases) { throw new Error('seed data missing'); }
`;

test('--before and --after run Yao global hooks once around a JSONL suite, BeforeAll data reaching AfterAll', async () => {
  const dir = app(HOOKS);
  const run = await agentest(['test', '-i', 'assistants/hooks/tests/inputs.jsonl', '-n', 'echo', '--before', 'env_test.BeforeAll', '--after', 'env_test.AfterAll', '--no-jsonl'], {
    cwd: dir,
    env: { DEBUG: 'agentest:kernel' },
  });
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stderr, /after-all saw tok-H1\+H2 and H1:passed,H2:passed/);
  assert.equal(run.stderr.match(/after-all saw/g)?.length, 1, 'AfterAll ran once');
});

test('a failing --before stops the run before any case; a --after naming no function is a configuration error', async () => {
  const dir = app(HOOKS);
  const failing = await agentest(['test', '-i', 'assistants/hooks/tests/inputs.jsonl', '-n', 'echo', '--before', 'env_test.Broken', '--no-jsonl'], { cwd: dir });
  assert.notEqual(failing.code, 0);
  assert.match(failing.stderr, /seed data missing/);
  assert.doesNotMatch(failing.stdout, /\[H1\]/, 'no case ran');
  assert.doesNotMatch(failing.stderr, /\n\s+at /, 'no stack trace');

  const missing = await agentest(['test', '-i', 'assistants/hooks/tests/inputs.jsonl', '-n', 'echo', '--after', 'env_test.Nope', '--no-jsonl'], { cwd: dir });
  assert.equal(missing.code, 2, missing.stderr);
  assert.match(missing.stderr, /env_test\.Nope/);

  const blank = await agentest(['test', '-i', 'assistants/hooks/tests/inputs.jsonl', '-n', 'echo', '--before', ' '], { cwd: dir });
  assert.equal(blank.code, 2);
  assert.match(blank.stderr, /^error\[FLAG_INVALID\]: --before needs a hook function/);
});
