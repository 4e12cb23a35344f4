import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { agentest, fixture } from './helpers.js';

/** A Yao app whose assistant keeps Yao's global hooks in src/env_test.ts. */
function app(envTest: string): string {
  return fixture({
    'app.yao': '{"name": "hooks-app"}\n',
    'assistants/hooks/package.yao': '{"name": "hooks"}\n',
    'assistants/hooks/src/env_test.ts': envTest,
    'assistants/hooks/tests/inputs.jsonl':
      '{"id": "H1", "input": "hello", "assert": {"type": "contains", "value": "hello"}}\n{"id": "H2", "input": "hello again", "assert": {"type": "contains", "value": "again"}}\n',
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
  const run = await agentest(
    [
      'test',
      '-i',
      'assistants/hooks/tests/inputs.jsonl',
      '-n',
      'echo',
      '--before',
      'env_test.BeforeAll',
      '--after',
      'env_test.AfterAll',
      '--no-jsonl',
    ],
    {
      cwd: dir,
      env: { DEBUG: 'agentest:kernel' },
    },
  );
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stderr, /after-all saw tok-H1\+H2 and H1:passed,H2:passed/);
  assert.equal(run.stderr.match(/after-all saw/g)?.length, 1, 'AfterAll ran once');
});

test('a failing --before stops the run before any case; a --after naming no function is a configuration error', async () => {
  const dir = app(HOOKS);
  const failing = await agentest(
    ['test', '-i', 'assistants/hooks/tests/inputs.jsonl', '-n', 'echo', '--before', 'env_test.Broken', '--no-jsonl'],
    { cwd: dir },
  );
  assert.notEqual(failing.code, 0);
  assert.match(failing.stderr, /seed data missing/);
  assert.doesNotMatch(failing.stdout, /\[H1\]/, 'no case ran');
  assert.doesNotMatch(failing.stderr, /\n\s+at /, 'no stack trace');

  const missing = await agentest(
    ['test', '-i', 'assistants/hooks/tests/inputs.jsonl', '-n', 'echo', '--after', 'env_test.Nope', '--no-jsonl'],
    { cwd: dir },
  );
  assert.equal(missing.code, 2, missing.stderr);
  assert.match(missing.stderr, /env_test\.Nope/);

  const blank = await agentest(['test', '-i', 'assistants/hooks/tests/inputs.jsonl', '-n', 'echo', '--before', ' '], {
    cwd: dir,
  });
  assert.equal(blank.code, 2);
  assert.match(blank.stderr, /^error\[FLAG_INVALID\]: --before needs a hook function/);
});

test('hooks are looked up in the assistant that -n names, so a suite kept outside its folder (as Yao keeps its own) finds them', async () => {
  const dir = fixture({
    'app.yao': '{"name": "hooks-app"}\n',
    'assistants/tests/hooked/package.yao': '{"name": "hooked"}\n',
    // A hook-only assistant: no prompts, its Next hook is the reply.
    'assistants/tests/hooked/src/index.ts':
      '// @ts-nocheck\nexport function Next(ctx, payload) { return { data: "reply" }; }\n',
    'assistants/tests/hooked/src/env_test.ts': `// @ts-nocheck
export function Before(ctx, testCase) { return { data: { seeded: testCase.id } }; }
export function Refuse(ctx, testCase) { throw new Error('refused ' + testCase.id); }
export function After(ctx, testCase, result, data) {}
`,
    'suites/hooked.jsonl':
      [
        '{"id": "H1", "input": "hi", "before": "env_test.Before", "after": "env_test.After", "assert": {"type": "equals", "value": "reply"}}',
        '{"id": "H2", "input": "hi", "before": "env_test.Refuse"}',
        '{"id": "H3", "input": "hi", "before": "env_test.Nope"}',
      ].join('\n') + '\n',
  });
  const run = await agentest(
    ['test', '-i', 'suites/hooked.jsonl', '-n', 'tests.hooked', '-o', 'report.json', '--before', 'env_test.Before'],
    { cwd: dir },
  );
  assert.equal(run.code, 1, run.stderr);
  const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as {
    results: { id: string; status: string; error?: string }[];
  };
  const byId = Object.fromEntries(report.results.map((r) => [r.id, r]));
  assert.equal(byId.H1!.status, 'passed', byId.H1!.error);
  assert.match(byId.H2!.error!, /before hook failed: env_test\.Refuse failed: refused H2/);
  assert.match(
    byId.H3!.error!,
    /hooked\.jsonl:3: field "before": env_test\.Nope: assistants\/tests\/hooked\/src\/env_test\.ts:Nope does not exist/,
  );
});
