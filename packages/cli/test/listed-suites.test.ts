import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { fixture, MIXED, PASSING } from './helpers.js';
import { agentestInProcess } from './in-process.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/** The part of the output that belongs to the suite whose header mentions `input`. */
function section(stdout: string, input: string): string {
  const parts = stdout.split(/^▶ /m);
  const found = parts.find((part) => part.split('\n')[0]!.includes(`-i ${input}`));
  assert.ok(found, `no suite header for ${input} in:\n${stdout.slice(0, 2000)}`);
  return found;
}

test("the repository's own config: `agentest test` at the root runs every example's suites with its config", async () => {
  // --reporter console replaces the examples' file reporters, so the run leaves nothing behind.
  const run = await agentestInProcess(['test', '--reporter', 'console', '--no-jsonl'], { cwd: ROOT });
  const headers = run.stdout.match(/^▶ .*$/gm);
  assert.deepEqual(headers, [
    '▶ examples/app: agentest test -i assistants/keyword/tests/inputs.jsonl',
    '▶ examples/app: agentest test -i assistants/orders/tests/inputs.jsonl',
    '▶ examples/app: agentest test -i scripts.expense.setup',
    '▶ examples/support: agentest test -i .',
    '▶ examples/reporters: agentest test -i tests/inputs.jsonl -n echo',
  ]);
  // Each example fails some cases on purpose; everything else passes, as the examples' READMEs say.
  assert.equal(run.code, 1, run.stderr);
  assert.equal(run.stderr, '');
  assert.match(section(run.stdout, 'assistants/keyword'), /Total: +16\n/);
  assert.match(section(run.stdout, 'assistants/keyword'), /Runs per case: 3/, "examples/app's config applies");
  assert.match(section(run.stdout, 'assistants/orders'), /Total: +6\n +Passed: +6\n/);
  assert.match(section(run.stdout, 'scripts.expense.setup'), /Summary: 4 passed, 2 failed, 1 skipped/);
  assert.match(section(run.stdout, '.'), /Tests: +9 passed \| 1 partial \| 1 failed \| 2 skipped \| 2 todo/);
  assert.match(section(run.stdout, 'tests/inputs.jsonl'), /Passed: +1\n +Failed: +1\n/);
});

test('without -i and without listed suites, -i is required and the message says where suites can be listed', async () => {
  const dir = fixture({ 'cases.jsonl': PASSING });
  const run = await agentestInProcess(['test'], { cwd: dir });
  assert.equal(run.code, 2);
  assert.match(run.stderr, /error\[FLAG_INVALID\]: -i, --input is required: .*test\.suites, projects/);
});

test('listed suites run one after another in the config folder; the exit code is the worst; one that cannot start does not stop the others', async () => {
  const dir = fixture({
    'mixed.jsonl': MIXED,
    'passing.jsonl': PASSING,
    'agentest.config.json': JSON.stringify({
      test: { suites: [{ input: 'passing.jsonl', agent: 'echo' }, 'missing.jsonl', 'mixed.jsonl'] },
    }),
  });
  const run = await agentestInProcess(['test', '-n', 'echo', '--no-jsonl'], { cwd: join(dir) });
  assert.equal(run.code, 2, 'a suite that could not start is a configuration error, worse than failed cases');
  assert.match(section(run.stdout, 'passing.jsonl'), /Passed: +2\n/);
  assert.match(run.stderr, /missing\.jsonl/);
  assert.match(
    run.stderr,
    /this suite's -i and -n come from agentest\.config\.json: test\.suites\[1\]/,
    'the error of a listed suite points at the config entry, not only at an -i the user never typed',
  );
  assert.match(section(run.stdout, 'mixed.jsonl'), /Passed: +2\n +Failed: +1\n/, 'the suite after it still ran');

  const refused = await agentestInProcess(['test', '-n', 'echo', '-o', 'out.json'], { cwd: dir });
  assert.equal(refused.code, 2);
  assert.match(refused.stderr, /error\[FLAG_INVALID\]: -o, --output names files for one suite, but the config lists 3/);
  assert.equal(existsSync(join(dir, 'out.json')), false);
});

test('projects: each runs with its own config in its own folder; a project without a config or a missing folder is a config error', async () => {
  const dir = fixture({
    'agentest.config.json': JSON.stringify({ projects: ['a'] }),
    'a/agentest.config.json': JSON.stringify({ test: { suites: [{ input: 'cases.jsonl', agent: 'echo' }], runs: 2 } }),
    'a/cases.jsonl': PASSING,
    'b/cases.jsonl': PASSING,
    'no-config.json': JSON.stringify({ projects: ['b'] }),
    'missing.json': JSON.stringify({ projects: ['nowhere'] }),
    'typo.json': JSON.stringify({ test: { suite: ['cases.jsonl'] } }),
  });
  const run = await agentestInProcess(['test', '--no-jsonl'], { cwd: dir });
  assert.equal(run.code, 0, run.stderr);
  assert.match(section(run.stdout, 'cases.jsonl'), /Runs per case: 2/, "the project's own config applies");
  assert.match(run.stdout, /^▶ a: agentest test -i cases\.jsonl -n echo$/m);

  const expectations: [string, RegExp][] = [
    [
      'no-config.json',
      /error\[CONFIG_INVALID\]: .*no-config\.json: projects\[0\]: .*b has no agentest config of its own/,
    ],
    ['missing.json', /error\[CONFIG_INVALID\]: .*missing\.json: projects\[0\]: "nowhere" is not a folder/],
    ['typo.json', /error\[CONFIG_INVALID\]: .*typo\.json: test\.suite: unknown key \(did you mean "suites"\?\)/],
  ];
  for (const [config, message] of expectations) {
    const refused = await agentestInProcess(['test', '--config', config], { cwd: dir });
    assert.equal(refused.code, 2, config);
    assert.match(refused.stderr, message);
  }
});
