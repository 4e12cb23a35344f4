import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fixture, jsonl, readJsonl } from './helpers.js';
import { agentestInProcess as agentest } from './in-process.js';

const TAGGED = jsonl([
  { id: 'T1', input: 'hello', tags: ['smoke', 'billing'], assert: { type: 'contains', value: 'hello' } },
  { id: 'T2', input: 'hello slow', tags: ['smoke', 'slow'], assert: { type: 'contains', value: 'hello' } },
  { id: 'T3', input: 'hello bill', tags: ['billing'], assert: { type: 'contains', value: 'hello' } },
  { id: 'T4', input: 'hello plain', assert: { type: 'contains', value: 'hello' } },
]);

/** The ids of the cases a run's JSONL stream reports, and their tags. */
async function ranWith(args: string[]): Promise<[string, unknown][]> {
  const dir = fixture({ 'inputs.jsonl': TAGGED });
  const run = await agentest(['test', '-i', 'inputs.jsonl', '-n', 'echo', '-o', 'run.jsonl', ...args], { cwd: dir });
  assert.equal(run.code, 0, run.stdout + run.stderr);
  return readJsonl(readFileSync(join(dir, 'run.jsonl'), 'utf8'))
    .filter((e) => e.type === 'result')
    .map((e) => [e.id as string, e.tags]);
}

test('--tag selects the cases with any of the tags, and the results carry their tags', async () => {
  assert.deepEqual(await ranWith(['--tag', 'slow', '--tag', 'billing']), [
    ['T1', ['smoke', 'billing']],
    ['T2', ['smoke', 'slow']],
    ['T3', ['billing']],
  ]);
});

test("--tag '!slow' leaves those cases out, and combines with the wanted tags and --run", async () => {
  assert.deepEqual(
    (await ranWith(['--tag', '!slow'])).map(([id]) => id),
    ['T1', 'T3', 'T4'],
  );
  assert.deepEqual(
    (await ranWith(['--tag', 'smoke', '--tag', '!slow'])).map(([id]) => id),
    ['T1'],
  );
  assert.deepEqual(
    (await ranWith(['--tag', 'billing', '--run', 'T[34]'])).map(([id]) => id),
    ['T3'],
  );
});

test('a tag no case has is exit 2 naming it, a close known tag and the suite’s tags', async () => {
  const dir = fixture({ 'inputs.jsonl': TAGGED });
  const run = await agentest(['test', '-i', 'inputs.jsonl', '-n', 'echo', '--tag', 'smok'], { cwd: dir });
  assert.equal(run.code, 2);
  assert.match(
    run.stderr,
    /error\[NO_CASES\]: no case has tag "smok" \(did you mean "smoke"\?\); tags in this suite: billing, slow, smoke/,
  );
  const none = await agentest(['test', '-i', 'inputs.jsonl', '-n', 'echo', '--tag', 'slow', '--run', 'T1'], {
    cwd: dir,
  });
  assert.equal(none.code, 2, 'tags that exist but select nothing with --run: an empty selection, as --run alone');
  assert.match(none.stderr, /--run T1 --tag slow matched no case/);
});

test('a tag list that is not an array of non-empty strings is an input error at file:line', async () => {
  for (const [tags, problem] of [
    ['smoke', /inputs\.jsonl:2: field "tags" must be an array of strings, got "smoke"/],
    [['ok', ' '], /inputs\.jsonl:2: field "tags\.1" must be a non-empty string/],
  ] as const) {
    const dir = fixture({
      'inputs.jsonl': jsonl([
        { id: 'A', input: 'hi' },
        { id: 'B', input: 'hi', tags },
      ]),
    });
    const run = await agentest(['test', '-i', 'inputs.jsonl', '-n', 'echo'], { cwd: dir });
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, problem);
    assert.match(run.stderr, /\["smoke", "billing"\]/, 'the fix shows the form');
  }
});

test('--list prints the selected cases with file:line and tags, runs nothing and writes no file', async () => {
  const dir = fixture({ 'inputs.jsonl': TAGGED });
  const run = await agentest(['test', '-i', 'inputs.jsonl', '-n', 'echo', '--list', '--tag', '!slow'], { cwd: dir });
  assert.equal(run.code, 0, run.stderr);
  assert.deepEqual(run.stdout.split('\n'), [
    'T1  inputs.jsonl:1  [smoke, billing]',
    'T3  inputs.jsonl:3  [billing]',
    'T4  inputs.jsonl:4',
    '',
  ]);
  assert.equal(run.stderr, '3 cases selected\n');
  assert.deepEqual(readdirSync(dir).sort(), ['inputs.jsonl', 'package.json']);
});

test('--list --json writes one object per case, after --shard as well', async () => {
  const dir = fixture({ 'inputs.jsonl': TAGGED });
  const whole = await agentest(['test', '-i', 'inputs.jsonl', '-n', 'echo', '--list', '--json'], { cwd: dir });
  const listed = readJsonl(whole.stdout);
  assert.deepEqual(listed[0], {
    id: 'T1',
    kind: 'agent',
    source: { file: 'inputs.jsonl', line: 1 },
    tags: ['smoke', 'billing'],
  });
  assert.deepEqual(listed[3]!.tags, []);
  const parts = await Promise.all(
    ['1/2', '2/2'].map((shard) =>
      agentest(['test', '-i', 'inputs.jsonl', '-n', 'echo', '--list', '--json', '--shard', shard], { cwd: dir }),
    ),
  );
  const ids = parts.flatMap((part) => readJsonl(part.stdout).map((c) => c.id));
  assert.deepEqual(ids.sort(), ['T1', 'T2', 'T3', 'T4'], 'each case is listed by exactly one shard');
  assert.ok(parts.every((part) => readJsonl(part.stdout).length < 4));
});

test('--list --json and --dry-run of the suites a config lists print JSON lines only on stdout', async () => {
  const dir = fixture({
    'inputs.jsonl': TAGGED,
    'agentest.config.mjs': `export default { test: { suites: [{ input: 'inputs.jsonl', agent: 'echo' }] } };\n`,
  });
  for (const flags of [['--list', '--json'], ['--dry-run']]) {
    const run = await agentest(['test', ...flags], { cwd: dir });
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(
      readJsonl(run.stdout).map((c) => c.id),
      ['T1', 'T2', 'T3', 'T4'],
      `${flags.join(' ')}: every stdout line is JSON`,
    );
    assert.match(run.stderr, /▶ \.: agentest test -i inputs\.jsonl -n echo/);
  }
});

test('--json without --list, and --list with --dry-run or --watch, are flag errors', async () => {
  const dir = fixture({ 'inputs.jsonl': TAGGED });
  for (const [flags, message] of [
    [['--json'], /--json goes with --list/],
    [['--list', '--dry-run'], /--list and --dry-run both print the cases/],
    [['--watch', '--list'], /--watch runs the cases again and again; --list runs none/],
    [['--tag', '!'], /--tag needs a tag name, got "!"/],
  ] as const) {
    const run = await agentest(['test', '-i', 'inputs.jsonl', '-n', 'echo', ...flags], { cwd: dir });
    assert.equal(run.code, 2, flags.join(' '));
    assert.match(run.stderr, message);
  }
});
