import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import summaryReporter from '../src/index.js';
import { mixedCases, runScenario, tempDir } from '../../report/test/scenario.js';

test('a brief text summary: outcome, counts, and the failing cases with their reasons', async () => {
  const dir = await tempDir();
  await runScenario(mixedCases(), [summaryReporter({ output: 'out/summary.txt', cwd: dir })]);
  const text = await readFile(join(dir, 'out/summary.txt'), 'utf8');
  const lines = text.split('\n');
  assert.equal(lines[0], 'Agent Test Summary');
  assert.equal(lines[2], 'Agent:     keyword (deepseek.v3)');
  assert.equal(lines[3], 'Input:     tests/inputs.jsonl');
  assert.match(lines[4]!, /^Result: {4}FAILED: 2 of 5 passed \(40.0% of runs\) in \d+ms$/);
  assert.equal(lines[5], '           1 failed · 1 errors · 1 timeouts · 1 skipped');
  assert.match(
    text,
    /Failures \(3\):\n {2}❌ T002 {2}failed {3}output does not contain 'cloud'\n {2}⏱️ T003 {2}timeout {2}timeout after 30s\n {2}💥 T004 {2}error {4}agent exploded at step 2\n$/,
  );
});

test('runs > 1 and thresholds: stability line, verdict with issues, unstable cases', async () => {
  const dir = await tempDir();
  const cases = [
    {
      id: 'flaky',
      behaviour: (run: number) => (run === 1 ? { output: 'ok' } : { status: 'failed' as const, error: 'no' }),
    },
    { id: 'solid' },
  ];
  await runScenario(cases, [summaryReporter({ output: 's.txt', cwd: dir })], {
    runs: 3,
    thresholds: { pass_rate: 0.4 },
  });
  const text = await readFile(join(dir, 's.txt'), 'utf8');
  assert.match(text, /Stability: 1 stable, 1 unstable \(3 runs per case\)/);
  assert.match(text, /Verdict: {3}SHIP IT/);
  assert.match(text, /Unstable cases \(1\):\n {2}flaky {2}33.3% \(1\/3\) highly_unstable/);
});

test('a run where everything passed says so', async () => {
  const dir = await tempDir();
  await runScenario([{ id: 'a' }, { id: 'b' }], [summaryReporter({ output: 's.txt', cwd: dir })]);
  const text = await readFile(join(dir, 's.txt'), 'utf8');
  assert.match(text, /Result: {4}PASSED: 2 of 2 passed \(100.0% of runs\)/);
  assert.doesNotMatch(text, /Failures/);
});
