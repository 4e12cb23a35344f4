import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { AgentestError } from '@agentest/kernel';
import markdownReporter from '../src/index.js';
import { mixedCases, runScenario, tempDir } from '../../report/test/scenario.js';

test("case headings give whole milliseconds, as the seed's '### ✅ T001 - Passed (234ms)' does, however short or long the case", async () => {
  const dir = await tempDir();
  const cases = [
    { id: 'T001', behaviour: () => ({ duration_ms: 0.02 }) },
    { id: 'T002', behaviour: () => ({ status: 'failed' as const, error: 'slow', duration_ms: 12_345.6 }) },
  ];
  await runScenario(cases, [markdownReporter({ output: 'r.md', cwd: dir })]);
  const md = await readFile(join(dir, 'r.md'), 'utf8');
  assert.match(md, /### ✅ T001 - passed \(0ms\)/);
  assert.match(md, /### ❌ T002 - failed \(12346ms\)/);
  assert.doesNotMatch(md, /### .*(µs|\d\.\ds)\)/);
});

test('writes the seed layout: summary, environment, one heading per case with failure details, metadata', async () => {
  const dir = await tempDir();
  const outcome = await runScenario(mixedCases(), [markdownReporter({ output: 'nested/deeper/report.md', cwd: dir })]);
  assert.ok(outcome.summary.failed > 0);
  const md = await readFile(join(dir, 'nested/deeper/report.md'), 'utf8');
  assert.match(md, /^# Agent Test Report\n\n## Summary\n\n\| Metric \| Value \|/);
  assert.match(
    md,
    /\| Agent \| keyword \|\n\| Connector \| deepseek.v3 \|\n\| Total \| 6 \|\n\| Passed \| 2 \|\n\| Failed \| 1 \|\n\| Skipped \| 1 \|\n\| Errors \| 1 \|\n\| Timeouts \| 1 \|/,
  );
  assert.match(md, /\| Pass Rate \| 40.0% \|/);
  assert.match(md, /## Environment\n\n\| Setting \| Value \|\n\| --- \| --- \|\n\| User \| test-user \|/);
  assert.match(md, /### ✅ T001 - passed \(101ms\)/);
  assert.match(md, /### ❌ T002 - failed \(101ms\)/);
  assert.match(md, /### ⏱️ T003 - timeout/);
  assert.match(md, /### 💥 T004 - error/);
  assert.match(md, /### ⏭️ T005 - skipped\n\n\*\*Skipped:\*\* needs network/, 'a skipped case shows no duration');
  assert.match(md, /### ✅ T006 - passed · PARTIAL/);
  // the failing case: error, the assertion's expected/actual with | and newline escaped, input and output excerpts
  const t002 = md.slice(md.indexOf('### ❌ T002'), md.indexOf('### ⏱️ T003'));
  assert.match(t002, /\*\*Source:\*\* `tests\/inputs.jsonl:2`/);
  assert.match(t002, /\*\*Error:\*\* output does not contain 'cloud'/);
  assert.match(t002, /\| contains \| cloud \| costs \\\| budgets<br>second line \| output does not contain 'cloud' \|/);
  assert.match(t002, /\*\*Input\*\*\n\n```text\nsystem: You extract keywords.\nuser: Cloud costs \| budgets\n```/);
  assert.match(t002, /\*\*Output\*\*\n\n```text\ncosts \| budgets\nsecond line\n```/);
  // a multi-line error is fenced; passed cases carry no excerpt
  assert.match(md, /\*\*Error:\*\*\n\n```text\nagent exploded\n  at step 2\n```/);
  assert.doesNotMatch(md.slice(md.indexOf('### ✅ T001'), md.indexOf('### ❌ T002')), /Output/);
  assert.match(md, /## Metadata\n\n\| Field \| Value \|\n\| --- \| --- \|\n\| Started \| \d{4}-/);
  assert.match(md, /\| Input File \| tests\/inputs.jsonl \|/);
  assert.doesNotMatch(md, /## Stability Analysis/);
  assert.deepEqual(
    (await readdir(join(dir, 'nested/deeper'))).filter((f) => f.endsWith('.tmp')),
    [],
    'no temp file left behind',
  );
});

test('runs > 1: per-case run counts and a stability table; metrics and the ship verdict', async () => {
  const dir = await tempDir();
  const cases = [
    {
      id: 'flaky',
      behaviour: (run: number) =>
        run % 2
          ? { output: 'ok', metrics: { keyword_hit_rate: 0.4 } }
          : { status: 'failed' as const, error: `wrong answer in run ${run}` },
    },
    { id: 'solid', behaviour: () => ({ output: 'ok', metrics: { keyword_hit_rate: 0.9 } }) },
  ];
  await runScenario(cases, [markdownReporter({ output: 'r.md', cwd: dir })], {
    runs: 4,
    thresholds: { pass_rate: 0.9, keyword_hit_rate: 0.5 },
  });
  const md = await readFile(join(dir, 'r.md'), 'utf8');
  assert.match(md, /\| Runs per Case \| 4 \|\n\| Total Runs \| 8 \|/);
  assert.match(
    md,
    /### ❌ flaky - failed \(\d+ms avg\)\n\n\*\*Source:\*\*[^\n]*\n\n\*\*Runs:\*\* 2\/4 passed \(50.0%, unstable\)/,
  );
  assert.match(md, /\*\*Failed runs\*\*\n\n- run 2: failed \(\d+ms\) wrong answer in run 2\n- run 4: failed/);
  assert.match(md, /## Stability Analysis\n\n\*\*Stable cases:\*\* 1 · \*\*Unstable cases:\*\* 1/);
  assert.match(md, /\| flaky \| 50.0% \| 2\/4 \| unstable \| \d+ms \| \d+ms \| 0.06 \| \d+–\d+% \|/);
  assert.match(md, /\| solid \| 100.0% \| 4\/4 \| stable \|/);
  assert.match(
    md,
    /## Metrics\n\n\| Metric \| Value \| Threshold \|\n\| --- \| --- \| --- \|\n\| keyword_hit_rate \| 65.0% \| ≥ 50.0% \|\n\| pass_rate \| 50.0% \| ≥ 90.0% \|/,
  );
  assert.match(md, /## Verdict\n\n\*\*❌ DO NOT SHIP\*\*\n\n- Pass Rate 50.0% < threshold 90.0%/);
});

test('script suites: titled as script tests, with the script and its path, logs and assertion info of failures', async () => {
  const dir = await tempDir();
  const cases = [
    { id: 'TestSystemReady', behaviour: () => ({ output: undefined }) },
    {
      id: 'TestAmount',
      behaviour: () => ({
        status: 'failed' as const,
        error: 'expected 2, got 1',
        logs: ['loaded 3 rows', 'checking amount'],
        details: { assertion: { type: 'Equal', expected: 2, actual: 1 } },
      }),
    },
  ];
  const meta = { script: 'scripts.expense.setup', script_path: 'assistants/expense/src/setup_test.ts' };
  await runScenario(cases, [markdownReporter({ output: 'script.md', cwd: dir })], { kind: 'script', meta });
  const md = await readFile(join(dir, 'script.md'), 'utf8');
  assert.match(md, /^# Script Test Report/);
  assert.match(md, /\| Script \| scripts.expense.setup \|\n\| Path \| assistants\/expense\/src\/setup_test.ts \|/);
  assert.doesNotMatch(md, /\| Agent \|/);
  assert.match(md, /\*\*Assertion\*\*\n\n```json\n\{\n  "type": "Equal",\n  "expected": 2,\n  "actual": 1\n\}\n```/);
  assert.match(md, /\*\*Logs\*\*\n\n```text\nloaded 3 rows\nchecking amount\n```/);
  assert.match(md, /\| Script Path \| assistants\/expense\/src\/setup_test.ts \|/);
});

test('user data cannot break the document: HTML, backticks in output, pipes and newlines in ids', async () => {
  const dir = await tempDir();
  const cases = [
    {
      id: 'evil|id',
      behaviour: () => ({
        status: 'failed' as const,
        error: '<img src=x onerror=alert(1)>',
        output: 'before\n```\n# not a heading\n```',
      }),
    },
  ];
  await runScenario(cases, [markdownReporter({ output: 'evil.md', cwd: dir, verbose: true })]);
  const md = await readFile(join(dir, 'evil.md'), 'utf8');
  assert.match(md, /### ❌ evil\|id - failed/);
  assert.match(md, /\*\*Error:\*\* &lt;img src=x onerror=alert\(1\)>/);
  assert.match(md, /````text\nbefore\n```\n# not a heading\n```\n````/);
});

test('invalid options are a PLUGIN_INVALID error naming the reporter and the option', async () => {
  await assert.rejects(
    runScenario(mixedCases(), [markdownReporter({ output: 42 } as never)]),
    (e: AgentestError) =>
      e.code === 'PLUGIN_INVALID' && /reporter "agentest:markdown": option "output"/.test(e.message),
  );
});
