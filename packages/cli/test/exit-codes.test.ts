import { test } from 'node:test';
import assert from 'node:assert/strict';
import { agentest, fixture, MIXED, PASSING } from './helpers.js';

test('exit 0 when every case passes, 1 when one fails', async () => {
  const dir = fixture({ 'ok.jsonl': PASSING, 'mixed.jsonl': MIXED });
  const ok = await agentest(['test', '-i', 'ok.jsonl', '-n', 'echo'], { cwd: dir });
  assert.equal(ok.code, 0, ok.stderr);
  assert.match(ok.stdout, /✨ ALL TESTS PASSED ✨/);
  const mixed = await agentest(['test', '-i', 'mixed.jsonl', '-n', 'echo'], { cwd: dir });
  assert.equal(mixed.code, 1, mixed.stderr);
  assert.match(mixed.stdout, /❌ TESTS FAILED/);
});

test('flag errors exit 2 with error[FLAG_INVALID] naming the flag, and no stack trace', async () => {
  const dir = fixture({ 'ok.jsonl': PASSING });
  const cases: [string[], RegExp][] = [
    [['--runs', '0'], /--runs must be a whole number of at least 1 or auto\[:max\], got "0"/],
    [['--parallel', 'x'], /--parallel must be a whole number/],
    [['--timeout', '5 minutes'], /--timeout must be a duration like 30s/],
    [['--run', '(['], /--run is not a valid regular expression/],
    [['--threshold', 'pass_rate'], /--threshold must be name=value/],
    [['-o', 'out.csv'], /-o, --output has an extension agentest cannot write \(\.csv\)/],
    [['--bogus'], /unknown option '--bogus'/],
  ];
  const runs = await Promise.all(
    cases.map(([flags]) => agentest(['test', '-i', 'ok.jsonl', '-n', 'echo', ...flags], { cwd: dir })),
  );
  runs.forEach((run, i) => {
    assert.equal(run.code, 2, `${cases[i]![0].join(' ')}: ${run.stderr}`);
    assert.match(run.stderr, /^error\[FLAG_INVALID\]: /);
    assert.match(run.stderr, cases[i]![1]);
    assert.match(run.stderr, /hint: /);
    assert.doesNotMatch(run.stderr, /\n\s+at /, 'no stack trace');
  });
});

test('input errors exit 2; DEBUG=agentest:* adds the stack', async () => {
  const dir = fixture({});
  const plain = await agentest(['test', '-i', 'missing.jsonl', '-n', 'echo'], { cwd: dir });
  assert.equal(plain.code, 2);
  assert.match(plain.stderr, /^error\[INPUT_NOT_FOUND\]: .*missing\.jsonl/);
  assert.doesNotMatch(plain.stderr, /\n\s+at /);
  const debug = await agentest(['test', '-i', 'missing.jsonl', '-n', 'echo'], {
    cwd: dir,
    env: { DEBUG: 'agentest:*' },
  });
  assert.equal(debug.code, 2);
  assert.match(debug.stderr, /\n\s+at /);
});

test('a reporter that throws: exit 3, the other outputs are still written', async () => {
  const dir = fixture({
    'ok.jsonl': PASSING,
    'agentest.config.mjs': `export default { reporters: [{ name: 'broken', onSummary() { throw new Error('disk full'); } }] };`,
  });
  const run = await agentest(['test', '-i', 'ok.jsonl', '-n', 'echo', '-o', 'out.jsonl'], { cwd: dir });
  assert.equal(run.code, 3, run.stderr);
  assert.match(run.stderr, /error\[REPORTER_FAILED\]: reporter "broken" failed in onSummary: disk full/);
  assert.match(run.stdout, /ALL TESTS PASSED/);
  const { readFileSync } = await import('node:fs');
  assert.match(readFileSync(`${dir}/out.jsonl`, 'utf8'), /"type":"summary"/);
});

test('--help documents every flag with its default and an example; --version prints the version', async () => {
  const dir = fixture({});
  const help = await agentest(['test', '--help'], { cwd: dir });
  assert.equal(help.code, 0);
  for (const flag of [
    '-i, --input',
    '-o, --output',
    '-n, --name',
    '-c, --connector',
    '-u, --user',
    '-t, --team',
    '--ctx',
    '-r <id>',
    '--reporter',
    '--runs',
    '--run <regex>',
    '--timeout',
    '--parallel',
    '-v, --verbose',
    '--fail-fast',
    '--threshold',
    '--config',
    '--no-jsonl',
    '--no-color',
  ]) {
    assert.ok(help.stdout.includes(flag), `help mentions ${flag}`);
  }
  assert.match(help.stdout.replace(/\s+/g, ' '), /default: 1; e\.g\. --runs 5/);
  const version = await agentest(['--version'], { cwd: dir });
  assert.equal(version.code, 0);
  assert.match(version.stdout, /^\d+\.\d+\.\d+/);
});
