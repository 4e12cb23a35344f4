import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { agentest, fixture, jsonl } from './helpers.js';
import { agentestInProcess } from './in-process.js';

/** 16 cases against the echo agent; in `changed` of them the assertion asks for a word the echo lacks. */
function suite(changed: number, ids = 16): string {
  return jsonl(
    Array.from({ length: ids }, (_, i) => ({
      id: `T${String(i).padStart(2, '0')}`,
      input: `hello ${i}`,
      assert: { type: 'contains', value: i < changed ? 'goodbye' : 'hello' },
    })),
  );
}

let dir: string;

/**
 * Real runs through the CLI (in this process, to spare the machine seven tsx start-ups): base (all pass), head with 6
 * regressions, head with 5, and a 3-run pair.
 */
before(async () => {
  dir = fixture({ 'tests/inputs.jsonl': suite(0) });
  const run = async (content: string, args: string[]) => {
    writeFileSync(join(dir, 'tests/inputs.jsonl'), content);
    const result = await agentestInProcess(['test', '-i', 'tests/inputs.jsonl', '-n', 'echo', ...args], { cwd: dir });
    assert.ok(result.code === 0 || result.code === 1, result.stderr);
  };
  await run(suite(0), ['-o', 'base.jsonl']);
  await run(suite(6), ['-o', 'six.jsonl']);
  await run(suite(5), ['-o', 'five.json']);
  await run(suite(0), ['-o', 'base3.jsonl', '--runs', '3']);
  await run(suite(6), ['-o', 'six3.json', '--runs', '3']);
  // The same cases run from another suite file, and a suite with none of these ids.
  const base = readFileSync(join(dir, 'base.jsonl'), 'utf8');
  writeFileSync(join(dir, 'other.jsonl'), base.replaceAll('tests/inputs.jsonl', 'other/inputs.jsonl'));
  writeFileSync(join(dir, 'disjoint.jsonl'), base.replace(/"T(\d\d)"/g, '"X$1"'));
});

test('6 regressed of 16 with one run a side: exit 1, the console table names them with the evidence', async () => {
  const run = await agentest(
    ['compare', 'base.jsonl', 'six.jsonl', '-o', 'out/c.md', '-o', 'out/c.html', '-o', 'out/c.json'],
    { cwd: dir },
  );
  assert.equal(run.code, 1, run.stderr);
  assert.match(run.stdout, /base {2}tests\/inputs\.jsonl · base\.jsonl · agent echo · 16 cases × 1 run/);
  assert.match(run.stdout, /T00 +✗ regressed +passed +failed +output does not contain 'goodbye'/);
  assert.match(run.stdout, /6 regressed · 10 still passing/);
  assert.match(
    run.stdout,
    /Verdict: REGRESSED — 6 regressed, 0 fixed of 16 cases: exact McNemar p = 0\.0313 < α 0\.05/,
  );
  const json = JSON.parse(readFileSync(join(dir, 'out/c.json'), 'utf8'));
  assert.equal(json.type, 'comparison');
  assert.equal(json.counts.regressed, 6);
  assert.equal(json.verdict.verdict, 'regressed');
  const markdown = readFileSync(join(dir, 'out/c.md'), 'utf8');
  assert.match(markdown, /^## ❌ agentest compare: REGRESSED/);
  assert.match(markdown, /\| `T05` \| 🔴 regressed \| passed \| failed \| output does not contain 'goodbye' \|/);
  const html = readFileSync(join(dir, 'out/c.html'), 'utf8');
  assert.match(
    html,
    /<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+'/,
  );
  assert.doesNotMatch(html, /<script/);
});

test('5 regressed of 20 is not significant (p 0.0625): exit 0; a .jsonl base against a .json head', async () => {
  const run = await agentestInProcess(['compare', 'base.jsonl', 'five.json', '--detect', '5%'], { cwd: dir });
  assert.equal(run.code, 0, run.stderr);
  assert.match(
    run.stdout,
    /Verdict: NO SIGNIFICANT CHANGE — 5 regressed, 0 fixed of 16 cases: exact McNemar p = 0\.0625 ≥ α 0\.05/,
  );
  assert.match(run.stdout, /These 16 cases cannot rule out a 5\.0-point drop: detecting it needs about \d+ cases/);
});

test('no change at all: exit 0', async () => {
  const run = await agentestInProcess(['compare', 'base.jsonl', 'base.jsonl'], { cwd: dir });
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /16 still passing/);
  assert.match(run.stdout, /Verdict: NO SIGNIFICANT CHANGE/);
});

test('several runs a side: the paired bootstrap decides, and the margin can tolerate the drop', async () => {
  const strict = await agentestInProcess(['compare', 'base3.jsonl', 'six3.json'], { cwd: dir });
  assert.equal(strict.code, 1, strict.stderr);
  assert.match(strict.stdout, /T00 +✗ regressed +3\/3 \(100\.0%, 43\.9%–100\.0%\) +0\/3 \(0\.0%, 0\.0%–56\.1%\)/);
  assert.match(
    strict.stdout,
    /Verdict: REGRESSED — pass rate −37\.5 points, 95% interval \[−\d+\.\d, −\d+\.\d\]: entirely below 0 \(the margin\)/,
  );
  const tolerant = await agentestInProcess(['compare', 'base3.jsonl', 'six3.json', '--margin', '0.9'], { cwd: dir });
  assert.equal(tolerant.code, 0, tolerant.stderr);
});

test('-o takes the spellings agentest test takes: .htm is HTML, .markdown is Markdown', async () => {
  const run = await agentestInProcess(['compare', 'base.jsonl', 'five.json', '-o', 'c.htm', '-o', 'c.markdown'], {
    cwd: dir,
  });
  assert.equal(run.code, 0, run.stderr);
  assert.match(readFileSync(join(dir, 'c.htm'), 'utf8'), /^<!doctype html>/i);
  assert.match(readFileSync(join(dir, 'c.markdown'), 'utf8'), /^## .*agentest compare/);
});

test('exit 2 with the reason when the reports cannot be compared or read, or a flag is wrong', async () => {
  const cases: [string[], RegExp][] = [
    [
      ['base.jsonl', 'other.jsonl'],
      /error\[REPORTS_NOT_COMPARABLE\]: different suites: base ran "tests\/inputs\.jsonl" and head ran "other\/inputs\.jsonl"/,
    ],
    [['base.jsonl', 'disjoint.jsonl', '--allow-suite-change'], /error\[REPORTS_NOT_COMPARABLE\]: no case id in common/],
    [['base.jsonl', 'missing.jsonl'], /error\[REPORT_UNREADABLE\]: missing\.jsonl: does not exist/],
    [
      ['base.jsonl', 'tests/inputs.jsonl'],
      /error\[REPORT_UNREADABLE\]: tests\/inputs\.jsonl: is a test suite \(its lines are cases with "input"\), not a report/,
    ],
    [
      ['base.jsonl', 'six.jsonl', '-o', 'c.csv'],
      /error\[FLAG_INVALID\]: -o, --output has an extension agentest compare cannot write \(\.csv\)/,
    ],
    [
      ['base.jsonl', 'six.jsonl', '--margin', '2'],
      /error\[FLAG_INVALID\]: --margin must be a fraction from 0 and below 1/,
    ],
    [['base.jsonl', 'six.jsonl', '--alpha', '0'], /error\[FLAG_INVALID\]: --alpha must be a fraction above 0/],
    [['base.jsonl'], /error\[FLAG_INVALID\]: missing required argument 'head'/],
  ];
  const runs = await Promise.all(cases.map(([args]) => agentestInProcess(['compare', ...args], { cwd: dir })));
  // The same through the real binary, for the process's exit code.
  const spawned = await agentest(['compare', 'base.jsonl', 'missing.jsonl'], { cwd: dir });
  assert.equal(spawned.code, 2, spawned.stderr);
  runs.forEach((run, i) => {
    assert.equal(run.code, 2, `${cases[i]![0].join(' ')}: ${run.stderr}`);
    assert.match(run.stderr, cases[i]![1]);
    assert.match(run.stderr, /hint: /);
    assert.doesNotMatch(run.stderr, /\n\s+at /, 'no stack trace');
  });
});

test('compare --help documents every flag with its default and an example', async () => {
  const help = await agentestInProcess(['compare', '--help'], { cwd: dir });
  assert.equal(help.code, 0, help.stderr);
  const text = help.stdout.replace(/\s+/g, ' ');
  for (const flag of [
    '<base>',
    '<head>',
    '-o, --output',
    '--margin',
    '--alpha',
    '--detect',
    '--seed',
    '--allow-suite-change',
    '--no-color',
  ])
    assert.ok(text.includes(flag), `help mentions ${flag}`);
  assert.match(text, /default: 0; e\.g\. --margin 0\.02/);
  assert.match(text, /Exit codes: 0 no significant regression · 1 significant regression · 2/);
});

test('test --baseline: the comparison is printed after the run and is in every report; the exit code stays the run’s own', async () => {
  writeFileSync(join(dir, 'tests/inputs.jsonl'), suite(6));
  const outputs = [
    'with-baseline.json',
    'with-baseline.md',
    'with-baseline.html',
    'with-baseline.txt',
    'with-baseline.xml',
  ];
  const runs = [];
  for (const output of outputs)
    runs.push(
      await agentestInProcess(
        ['test', '-i', 'tests/inputs.jsonl', '-n', 'echo', '-o', output, '--baseline', 'base.jsonl', '--no-jsonl'],
        { cwd: dir },
      ),
    );
  for (const run of runs) {
    assert.equal(run.code, 1, run.stderr);
    assert.match(
      run.stdout,
      /TESTS FAILED[\s\S]*agentest compare\n {2}base {2}tests\/inputs\.jsonl · base\.jsonl[\s\S]*head {2}tests\/inputs\.jsonl · this run/,
    );
    assert.match(run.stdout, /Verdict: REGRESSED — 6 regressed, 0 fixed of 16 cases/);
  }
  const json = JSON.parse(readFileSync(join(dir, 'with-baseline.json'), 'utf8'));
  assert.deepEqual(json.summary.comparison.regressed, ['T00', 'T01', 'T02', 'T03', 'T04', 'T05']);
  assert.equal(json.summary.comparison.verdict, 'regressed');
  assert.equal(json.summary.comparison.baseline, 'base.jsonl');
  assert.match(
    readFileSync(join(dir, 'with-baseline.md'), 'utf8'),
    /## Compared with `base\.jsonl`\n\n\*\*❌ REGRESSED\*\*: 6 regressed, 0 fixed of 16 cases[\s\S]*Regressed \(6\): `T00`, `T01`/,
  );
  assert.match(readFileSync(join(dir, 'with-baseline.html'), 'utf8'), /Compared with base\.jsonl: REGRESSED<\/h2>/);
  assert.match(
    readFileSync(join(dir, 'with-baseline.txt'), 'utf8'),
    /Baseline: {2}REGRESSED against base\.jsonl: 6 regressed, 0 fixed of 16 cases[^\n]*\n {11}6 regressed \(T00, T01, T02, T03, T04, T05\) · 0 fixed/,
  );
  assert.match(
    readFileSync(join(dir, 'with-baseline.xml'), 'utf8'),
    /<property name="baseline\.verdict" value="regressed"\/>[\s\S]*<property name="baseline\.regressed" value="T00 T01 T02 T03 T04 T05"\/>/,
  );
});

test('test --baseline: an unreadable baseline stops the run before the first case (exit 2); one sharing no case is noted', async () => {
  writeFileSync(join(dir, 'tests/inputs.jsonl'), suite(0));
  const missing = await agentestInProcess(
    ['test', '-i', 'tests/inputs.jsonl', '-n', 'echo', '-o', 'never.json', '--baseline', 'gone.jsonl'],
    { cwd: dir },
  );
  assert.equal(missing.code, 2, missing.stderr);
  assert.match(missing.stderr, /error\[REPORT_UNREADABLE\]: gone\.jsonl: does not exist/);
  assert.equal(existsSync(join(dir, 'never.json')), false, 'no case ran');
  const disjoint = await agentestInProcess(
    ['test', '-i', 'tests/inputs.jsonl', '-n', 'echo', '-o', 'disjoint-run.json', '--baseline', 'disjoint.jsonl'],
    { cwd: dir },
  );
  assert.equal(disjoint.code, 0, disjoint.stderr);
  assert.match(disjoint.stdout, /Compared with disjoint\.jsonl: not comparable: no case id in common/);
  assert.equal(
    JSON.parse(readFileSync(join(dir, 'disjoint-run.json'), 'utf8')).summary.comparison.verdict,
    'not_comparable',
  );
});

test('on GitHub Actions the comparison is appended to the job summary', async () => {
  const summaryFile = join(dir, 'step-summary.md');
  writeFileSync(summaryFile, '# earlier step\n');
  const run = await agentestInProcess(['compare', 'base.jsonl', 'six.jsonl'], {
    cwd: dir,
    env: { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summaryFile },
  });
  assert.equal(run.code, 1, run.stderr);
  assert.match(readFileSync(summaryFile, 'utf8'), /^# earlier step\n## ❌ agentest compare: REGRESSED/);
});
