import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fixture } from './helpers.js';
import { agentestInProcess as agentest } from './in-process.js';

/** A project whose `gen` agent answers `reply` and records the request it got in request.json. */
function project(reply: string): string {
  return fixture({
    'agentest.config.mjs': `
import { writeFileSync } from 'node:fs';
export default {
  agents: {
    gen: {
      async run(messages) {
        writeFileSync(new URL('./request.json', import.meta.url), messages[0].content);
        return { content: ${JSON.stringify(reply)}, text: ${JSON.stringify(reply)} };
      },
    },
  },
};`,
  });
}

const CASES = [
  { id: 'G1', input: 'hello there', assert: [{ type: 'contains', value: 'hello' }] },
  { id: 'G2', input: 'good bye', assert: [{ type: 'contains', value: 'hello' }] },
];

test('-i "agents:<id>?count=N&…" asks the generator and runs the cases it returns (not a chat message)', async () => {
  const dir = project(JSON.stringify({ cases: CASES }));
  const run = await agentest(
    [
      'test',
      '-i',
      'agents:gen?count=2&focus=edge%20cases&lang=zh&strict=true&depth=1.5',
      '-n',
      'echo',
      '-o',
      'out.json',
    ],
    { cwd: dir },
  );
  assert.equal(run.code, 1, run.stdout + run.stderr);
  assert.deepEqual(JSON.parse(readFileSync(join(dir, 'request.json'), 'utf8')), {
    target_agent: { id: 'echo' },
    count: 2,
    focus: 'edge cases',
    extra: { lang: 'zh', strict: true, depth: 1.5 },
  });
  const report = JSON.parse(readFileSync(join(dir, 'out.json'), 'utf8'));
  assert.deepEqual(
    report.results.map((r: { id: string; status: string }) => [r.id, r.status]),
    [
      ['G1', 'passed'],
      ['G2', 'failed'],
    ],
  );

  // The request is escaped as Yao's Go encoder writes it.
  await agentest(['test', '-i', 'agents:gen?focus=%3Cb%3E%20%26%20co', '-n', 'echo', '--dry-run'], { cwd: dir });
  assert.match(readFileSync(join(dir, 'request.json'), 'utf8'), /"focus":"\\u003cb\\u003e \\u0026 co"/);
});

test('--dry-run writes the generated cases as JSONL, to stdout or -o, and runs nothing; the file runs as a suite', async () => {
  const fenced = 'Here you are:\n```json\n' + JSON.stringify(CASES) + '\n```';
  const dir = project(fenced);
  const listed = await agentest(['test', '-i', 'agents:gen', '-n', 'echo', '--dry-run'], { cwd: dir });
  assert.equal(listed.code, 0, listed.stderr);
  assert.deepEqual(
    listed.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line)),
    CASES,
  );
  assert.equal(JSON.parse(readFileSync(join(dir, 'request.json'), 'utf8')).count, 5, "Yao's default count");

  const written = await agentest(
    ['test', '-i', 'agents:gen', '-n', 'echo', '--dry-run', '-o', 'tests/gen.jsonl', '--run', 'G2'],
    {
      cwd: dir,
    },
  );
  assert.equal(written.code, 0, written.stderr);
  assert.match(written.stderr, /Dry run: 1 test case written to .*tests\/gen\.jsonl/);
  assert.deepEqual(
    JSON.parse(readFileSync(join(dir, 'tests/gen.jsonl'), 'utf8')),
    CASES[1],
    '--run applies; the missing folder is made',
  );
  const rerun = await agentest(['test', '-i', 'tests/gen.jsonl', '-n', 'echo', '--no-jsonl'], { cwd: dir });
  assert.equal(rerun.code, 1, 'the reviewed file runs: G2 fails');
});

test('generated cases are checked as a file is: a bad item is INPUT_INVALID at <input>:<item>; dynamic cases are kept', async () => {
  let dir = project(JSON.stringify([CASES[0], { id: 'G2' }]));
  let run = await agentest(['test', '-i', 'agents:gen?count=2', '-n', 'echo'], { cwd: dir });
  assert.equal(run.code, 2);
  assert.match(
    run.stderr,
    /^error\[INPUT_INVALID\]: agents:gen\?count=2:2: case "G2" is missing required field "input"/,
  );

  dir = project(JSON.stringify([CASES[0], CASES[0]]));
  run = await agentest(['test', '-i', 'agents:gen', '-n', 'echo', '--dry-run'], { cwd: dir });
  assert.equal(run.code, 2);
  assert.match(run.stderr, /DUPLICATE_CASE_ID|duplicate/i);

  const dynamic = {
    id: 'D1',
    input: 'hi',
    // A simulator the run can find: --dry-run checks the cases as a run would.
    simulator: { use: 'echo', options: { metadata: { goal: 'x' } } },
    checkpoints: [{ id: 'a', assert: [{ type: 'contains', value: 'hi' }] }],
    max_turns: 3,
  };
  dir = project(JSON.stringify(dynamic));
  run = await agentest(['test', '-i', 'agents:gen', '-n', 'echo', '--dry-run'], { cwd: dir });
  assert.equal(run.code, 0, run.stderr);
  assert.deepEqual(JSON.parse(run.stdout), dynamic, 'one object is one case; Yao drops simulator and checkpoints');
});

test('a generator that fails, is unknown or answers prose is GENERATOR_FAILED (exit 3) quoting it; a bad query is exit 2', async () => {
  let run = await agentest(['test', '-i', 'agents:gen', '-n', 'echo'], { cwd: project('Sure! I will write cases.') });
  assert.equal(run.code, 3);
  assert.match(
    run.stderr,
    /^error\[GENERATOR_FAILED\]: -i "agents:gen": generator "gen" did not answer with JSON cases: "Sure! I will write cases\."/,
  );

  run = await agentest(['test', '-i', 'agents:nobody', '-n', 'echo'], { cwd: project('[]') });
  assert.equal(run.code, 3);
  assert.match(run.stderr, /GENERATOR_FAILED.*its generator agent could not be loaded: could not find agent "nobody"/);

  run = await agentest(['test', '-i', 'agents:gen', '-n', 'echo'], { cwd: project('42') });
  assert.equal(run.code, 3, run.stderr);
  assert.match(run.stderr, /did not answer with JSON cases: "42"/);

  for (const [input, message] of [
    ['agents:gen?count=abc', /has count=abc — count is a whole number/],
    ['agents:gen?count=1.5', /has count=1\.5/],
    ['agents:gen?focus=%zz', /bad %-escape/],
    ['agents:gen?a=1;b=2', /malformed query parameter/],
    ['agents:?count=2', /names no generator agent/],
  ] as const) {
    run = await agentest(['test', '-i', input, '-n', 'echo'], { cwd: project('[]') });
    assert.equal(run.code, 2, input);
    assert.match(run.stderr, message, input);
    // The fix is in the -i value: no file line to correct.
    assert.match(run.stderr, /hint: Correct the -i value: -i "agents:<agent id>\?count=N/, input);
  }

  run = await agentest(['test', '-i', 'agents:gen', '-n', 'echo'], { cwd: project('[]') });
  assert.equal(run.code, 2, run.stderr);
  assert.match(run.stderr, /generated no test cases/);
  assert.match(run.stderr, /hint: Make the generator return a JSON array of cases/);
});

test('-i "scripts:<module>.<Function>" calls the app script with the target agent and runs its cases; failures name -i', async () => {
  const dir = fixture({
    'app.yao': '{}',
    'scripts/tests/gen.ts': `export function Make(target) {
  return [{ id: 'S1', input: 'hello from ' + target.id, assert: { type: 'contains', value: 'hello' } }];
}
export function Broken() { throw new Error('no cases today'); }
export function Bad() { return [{ id: 'S1' }]; }
export function Text() { return '[{"id": "S1", "input": "hi"}]'; }
`,
  });
  let run = await agentest(['test', '-i', 'scripts:tests.gen.Make', '-n', 'echo', '--dry-run'], { cwd: dir });
  assert.equal(run.code, 0, run.stderr);
  assert.deepEqual(JSON.parse(run.stdout), {
    id: 'S1',
    input: 'hello from echo',
    assert: [{ type: 'contains', value: 'hello' }],
  });
  run = await agentest(['test', '-i', 'scripts:tests.gen.Make', '-n', 'echo', '--no-jsonl'], { cwd: dir });
  assert.equal(run.code, 0, run.stdout + run.stderr);

  run = await agentest(['test', '-i', 'scripts:tests.gen.Broken', '-n', 'echo'], { cwd: dir });
  assert.equal(run.code, 3);
  assert.match(run.stderr, /GENERATOR_FAILED\]: -i "scripts:tests\.gen\.Broken": Broken failed: .*no cases today/);
  run = await agentest(['test', '-i', 'scripts:tests.gen.Bad', '-n', 'echo'], { cwd: dir });
  assert.equal(run.code, 2);
  assert.match(run.stderr, /INPUT_INVALID\]: scripts:tests\.gen\.Bad:1: case "S1" is missing required field "input"/);
  run = await agentest(['test', '-i', 'scripts:tests.gen.Text', '-n', 'echo'], { cwd: dir });
  assert.equal(run.code, 2);
  assert.match(run.stderr, /INPUT_INVALID\]: script tests\.gen\.Text returned string instead of test cases/);
  assert.match(run.stderr, /hint: Make the generator return a JSON array of cases/);
  run = await agentest(['test', '-i', 'scripts:nomodule', '-n', 'echo'], { cwd: dir });
  assert.equal(run.code, 2);
  assert.match(run.stderr, /INPUT_INVALID\]: -i "scripts:nomodule" is not scripts:<module>\.<Function>, a function of/);
  assert.match(run.stderr, /hint: Correct the -i value: -i "scripts:<module>\.<Function>"/);
});
