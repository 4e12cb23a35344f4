import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { test } from 'node:test';
import { createProgram } from '../src/index.js';
import { acceptGoFlags } from '../src/go-flags.js';
import { fixture, jsonl, MIXED, readJsonl } from './helpers.js';
import { agentestInProcess as agentest, Captured } from './in-process.js';

const TWO = jsonl([
  { id: 'TestSystemReady', input: 'hello', assert: { type: 'contains', value: 'hello' } },
  { id: 'Other', input: 'hello', assert: { type: 'contains', value: 'hello' } },
]);

test('-r with a file name is exit 2 before the first case, naming -o; no file is written', async () => {
  const dir = fixture({ 'inputs.jsonl': MIXED });
  const run = await agentest(['test', '-i', 'inputs.jsonl', '-n', 'echo', '-r', 'report.htm'], { cwd: dir });
  assert.equal(run.code, 2, run.stderr);
  assert.match(
    run.stderr,
    /^error\[FLAG_INVALID\]: -r "report\.htm" names no reporter agent \(did you mean "report\.html"\?\): -r takes a reporter agent id or a built-in format \(report\.json, report\.markdown, report\.html, report\.summary\); to write the file report\.htm, use -o report\.htm/,
  );
  assert.doesNotMatch(run.stdout, /T1/, 'no case ran');
  assert.deepEqual(readdirSync(dir).sort(), ['inputs.jsonl', 'package.json']);
});

test('a reporter agent that exists is resolved before the run and writes the report after it', async () => {
  const dir = fixture({ 'inputs.jsonl': MIXED });
  const run = await agentest(['test', '-i', 'inputs.jsonl', '-n', 'echo', '-r', 'echo', '-o', 'report.md'], {
    cwd: dir,
  });
  assert.equal(run.code, 1, run.stderr);
  assert.ok(readdirSync(dir).includes('report.md'));
});

test("Go's single-dash long flags, as Yao's docs write them: -run, -runs, -timeout, -parallel, -run=X", async () => {
  const dir = fixture({ 'inputs.jsonl': TWO });
  const run = await agentest(
    [
      'test',
      '-i',
      'inputs.jsonl',
      '-n',
      'echo',
      '-run',
      'TestSystem',
      '-runs',
      '2',
      '-timeout',
      '30s',
      '-parallel',
      '2',
      '-o',
      'out.jsonl',
    ],
    { cwd: dir },
  );
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /Timeout: 30s/);
  assert.match(run.stdout, /Parallel: 2/);
  const results = readJsonl(await import('node:fs').then((fs) => fs.readFileSync(`${dir}/out.jsonl`, 'utf8'))).filter(
    (e) => e.type === 'result',
  );
  assert.deepEqual(
    results.map((r) => r.id),
    ['TestSystemReady'],
  );
  const equals = await agentest(['test', '-i', 'inputs.jsonl', '-n', 'echo', '-run=Other', '--no-jsonl'], { cwd: dir });
  assert.match(equals.stdout, /\[Other\]/);
  assert.doesNotMatch(equals.stdout, /\[TestSystemReady\]/);
});

test('acceptGoFlags rewrites only option names: values, short flags and everything after -- stay as written', () => {
  const command = createProgram(
    '0.0.0',
    { cwd: '/', env: {}, stdout: new Captured(), stderr: new Captured() },
    () => {},
  ).commands.find((c) => c.name() === 'test')!;
  assert.deepEqual(acceptGoFlags(['-run', 'X', '-ctx', 'c.json', '-fail-fast', '-no-color'], command), [
    '--run',
    'X',
    '--ctx',
    'c.json',
    '--fail-fast',
    '--no-color',
  ]);
  assert.deepEqual(acceptGoFlags(['-i', '-run', '-n', '-timeout'], command), ['-i', '-run', '-n', '-timeout']);
  assert.deepEqual(acceptGoFlags(['-r', 'report.html', '-v', '-timeout=2m', '-ihello'], command), [
    '-r',
    'report.html',
    '-v',
    '--timeout=2m',
    '-ihello',
  ]);
  assert.deepEqual(acceptGoFlags(['-runs', '3', '--', '-run'], command), ['--runs', '3', '--', '-run']);
});

test('a duration without a unit is an error suggesting seconds: --timeout, the config, a case', async () => {
  const dir = fixture({ 'inputs.jsonl': TWO, 'slow.jsonl': jsonl([{ id: 'S1', input: 'x', timeout: '30' }]) });
  const flag = await agentest(['test', '-i', 'inputs.jsonl', '-n', 'echo', '--timeout', '30'], { cwd: dir });
  assert.equal(flag.code, 2);
  assert.match(
    flag.stderr,
    /^error\[FLAG_INVALID\]: --timeout has no unit \("30"\); write "30s" for 30 seconds \(or "30ms" if milliseconds were meant\)/,
  );

  for (const timeout of [30, '30']) {
    const configured = fixture({ 'inputs.jsonl': TWO, 'agentest.config.json': JSON.stringify({ test: { timeout } }) });
    const run = await agentest(['test', '-i', 'inputs.jsonl', '-n', 'echo'], { cwd: configured });
    assert.equal(run.code, 2, String(timeout));
    assert.match(
      run.stderr,
      /^error\[CONFIG_INVALID\]: .*agentest\.config\.json: test\.timeout: (30|"30") has no unit; write "30s"/,
    );
  }

  const line = await agentest(['test', '-i', 'slow.jsonl', '-n', 'echo'], { cwd: dir });
  assert.equal(line.code, 2);
  assert.match(
    line.stderr,
    /^error\[INPUT_INVALID\]: slow\.jsonl:1: field "timeout" has no unit: "30" — write "30s" for 30 seconds/,
  );
});

test('-n with an unknown id lists the config agents and built-ins, and does not tell the user to pass -n', async () => {
  const dir = fixture({
    'inputs.jsonl': TWO,
    'agentest.config.json': JSON.stringify({
      agents: { 'gpt.raw': { connector: 'fake' } },
      connectors: { fake: { type: 'mock' } },
    }),
  });
  const run = await agentest(['test', '-i', 'inputs.jsonl', '-n', 'gpt.rwa'], { cwd: dir });
  assert.equal(run.code, 2, run.stderr);
  assert.match(
    run.stderr,
    /could not find agent "gpt\.rwa" \(did you mean "gpt\.raw"\?\); config agents: gpt\.raw; built-ins: echo, mock/,
  );
  assert.doesNotMatch(run.stderr, /pass -n/i);
});
