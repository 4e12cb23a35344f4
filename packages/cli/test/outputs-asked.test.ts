import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { claimDefaultOutputs } from '../src/default-outputs.js';
import { fixture, MIXED, readJsonl } from './helpers.js';
import { agentestInProcess as agentest } from './in-process.js';

/** What a run left in a folder, besides the run history it records in `.agentest/` by design. */
const files = (dir: string) =>
  readdirSync(dir)
    .filter((name) => name !== '.agentest')
    .sort();

test('-o writes only the file asked for: no default JSONL beside the suite', async () => {
  const dir = fixture({ 'tests/inputs.jsonl': MIXED });
  const run = await agentest(['test', '-i', 'tests/inputs.jsonl', '-n', 'echo', '-o', 'report.html'], { cwd: dir });
  assert.equal(run.code, 1, run.stderr);
  assert.deepEqual(files(join(dir, 'tests')), ['inputs.jsonl']);
  assert.deepEqual(files(dir), ['package.json', 'report.html', 'tests']);
});

test('-o is repeatable: several formats from one run, and nothing else', async () => {
  const dir = fixture({ 'tests/inputs.jsonl': MIXED });
  const run = await agentest(
    ['test', '-i', 'tests/inputs.jsonl', '-n', 'echo', '-o', 'report.html', '-o', 'run.jsonl', '-o', 'report.xml'],
    { cwd: dir },
  );
  assert.equal(run.code, 1, run.stderr);
  assert.deepEqual(files(dir), ['package.json', 'report.html', 'report.xml', 'run.jsonl', 'tests']);
  assert.equal(readJsonl(readFileSync(join(dir, 'run.jsonl'), 'utf8')).at(-1)!.type, 'summary');
  assert.match(readFileSync(join(dir, 'report.xml'), 'utf8'), /<testsuite/);
  assert.match(run.stdout, /Output: report\.html[\s\S]*Output: run\.jsonl/);
});

test('without -o the default JSONL is written beside the suite', async () => {
  const dir = fixture({ 'tests/inputs.jsonl': MIXED });
  await agentest(['test', '-i', 'tests/inputs.jsonl', '-n', 'echo'], { cwd: dir });
  assert.match(files(join(dir, 'tests')).join(' '), /^inputs\.jsonl output-\d{14}\.jsonl$/);
});

test('message runs write no file unless asked: config reporters without an output are skipped, ones with a path are kept', async () => {
  const config = { reporters: ['console', 'json', 'markdown', 'html', ['junit', { output: 'ci/junit.xml' }]] };
  const dir = fixture({ 'agentest.config.json': JSON.stringify(config) });
  const run = await agentest(['test', '-i', 'hello there', '-n', 'echo'], { cwd: dir });
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stdout, 'hello there\n');
  assert.deepEqual(files(dir), ['agentest.config.json', 'ci', 'package.json']);
  assert.ok(existsSync(join(dir, 'ci', 'junit.xml')), 'an explicit path is a request');

  const asked = await agentest(['test', '-i', 'hello there', '-n', 'echo', '-o', 'reply.md'], { cwd: dir });
  assert.equal(asked.code, 0, asked.stderr);
  assert.deepEqual(files(dir), ['agentest.config.json', 'ci', 'package.json', 'reply.md']);
});

test('two runs in the same folder at once both keep their results (default names are unique)', async () => {
  const dir = fixture({ 'inputs.jsonl': MIXED });
  await Promise.all([
    agentest(['test', '-i', 'inputs.jsonl', '-n', 'echo'], { cwd: dir }),
    agentest(['test', '-i', 'inputs.jsonl', '-n', 'echo'], { cwd: dir }),
  ]);
  const streams = files(dir).filter((f) => f.startsWith('output-'));
  assert.equal(streams.length, 2, streams.join(', '));
  for (const stream of streams)
    assert.equal(readJsonl(readFileSync(join(dir, stream), 'utf8')).filter((e) => e.type === 'summary').length, 1);
});

test('a default name already taken is not reused: the run takes the next suffix, claimed exclusively; unused claims are released', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'agentest-claim-'));
  const base = join(dir, 'output-20241217100000');
  writeFileSync(`${base}.html`, 'an earlier run');
  const plan = async (stem: string) => ({ outputs: [`${stem}.jsonl`, `${stem}.html`, join(dir, 'explicit.json')] });
  const first = await claimDefaultOutputs(base, plan);
  assert.deepEqual(first.planned.outputs, [`${base}-2.jsonl`, `${base}-2.html`, join(dir, 'explicit.json')]);
  const second = await claimDefaultOutputs(base, plan);
  assert.equal(second.planned.outputs[0], `${base}-3.jsonl`, 'the claim of a run still in progress is respected');
  assert.deepEqual(files(dir), [
    'output-20241217100000-2.html',
    'output-20241217100000-2.jsonl',
    'output-20241217100000-3.html',
    'output-20241217100000-3.jsonl',
    'output-20241217100000.html',
  ]);
  writeFileSync(`${base}-2.jsonl`, '{"type":"summary"}\n');
  await first.release();
  await second.release();
  assert.deepEqual(files(dir), ['output-20241217100000-2.jsonl', 'output-20241217100000.html']);
  assert.equal(readFileSync(`${base}.html`, 'utf8'), 'an earlier run');
});
