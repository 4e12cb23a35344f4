import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import githubReporter, { escapeData, escapeProperty } from '../src/index.js';
import { mixedCases, runScenario, tempDir } from '../../report/test/scenario.js';

test('in GitHub Actions: one error annotation per failing case at its JSONL line, and a job summary appended', async () => {
  const dir = await tempDir();
  const summaryFile = join(dir, 'step-summary.md');
  await writeFile(summaryFile, 'previous step\n');
  const lines: string[] = [];
  const cases = [
    ...mixedCases(),
    {
      id: 'odd,id: 100%',
      source: { file: join(dir, 'tests/extra.jsonl'), line: 7 },
      behaviour: () => ({ status: 'failed' as const, error: '50% off\r\nnext' }),
    },
  ];
  const env = { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summaryFile, GITHUB_WORKSPACE: dir };
  await runScenario(cases, [githubReporter({ env, cwd: dir, write: (line) => lines.push(line) })]);
  assert.deepEqual(lines, [
    "::error file=tests/inputs.jsonl,line=2,title=T002::failed: output does not contain 'cloud'",
    '::error file=tests/inputs.jsonl,line=3,title=T003::timeout: timeout after 30s',
    '::error file=tests/inputs.jsonl,line=4,title=T004::error: agent exploded%0A  at step 2',
    '::error file=tests/extra.jsonl,line=7,title=odd%2Cid%3A 100%25::failed: 50%25 off%0D%0Anext',
  ]);
  const summary = await readFile(summaryFile, 'utf8');
  assert.match(summary, /^previous step\n# Agent Test Report\n\n## Summary/);
  assert.match(summary, /## Failures\n\n### ❌ T002 - failed/);
  assert.doesNotMatch(summary, /### ✅ T001/);
  assert.match(summary, /_3 cases that passed or were skipped are not listed._/);
});

test('with runs > 1 the annotation says how many runs passed; past maxAnnotations one notice counts the rest', async () => {
  const lines: string[] = [];
  const cases = ['a', 'b', 'c'].map((id) => ({
    id,
    behaviour: (run: number) => (run === 1 ? { output: 'ok' } : { status: 'failed' as const, error: `bad ${id}` }),
  }));
  await runScenario(
    cases,
    [githubReporter({ env: { GITHUB_ACTIONS: 'true' }, write: (line) => lines.push(line), maxAnnotations: 2 })],
    { runs: 2 },
  );
  assert.deepEqual(lines, [
    '::error file=tests/inputs.jsonl,line=1,title=a::failed (1/2 runs passed): bad a',
    '::error file=tests/inputs.jsonl,line=1,title=b::failed (1/2 runs passed): bad b',
    '::notice::1 more failing cases were not annotated; see the job summary',
  ]);
});

test('outside GitHub Actions it writes nothing', async () => {
  const dir = await tempDir();
  const lines: string[] = [];
  const summaryFile = join(dir, 'never.md');
  await runScenario(mixedCases(), [
    githubReporter({ env: { GITHUB_STEP_SUMMARY: summaryFile }, write: (line) => lines.push(line) }),
  ]);
  assert.deepEqual(lines, []);
  assert.equal(existsSync(summaryFile), false);
});

test('escaping follows the runner: %, CR, LF everywhere; also : and , in properties', () => {
  assert.equal(escapeData('a%b\r\nc:d,e'), 'a%25b%0D%0Ac:d,e');
  assert.equal(escapeProperty('a%b\r\nc:d,e'), 'a%25b%0D%0Ac%3Ad%2Ce');
});
