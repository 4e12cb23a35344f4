/**
 * A static case with no assertion passes, as in Yao, but not silently: through the real CLI its result
 * carries a warning, and the console, Markdown, HTML and JSON reports count such cases in their summary.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from './helpers/cli.js';
import { workspace, writeCases } from './helpers/workspace.js';

const WARNING = 'no assertion: the case passes whatever the agent answers; add `assert` or `expected`';

test('cases with no assertion pass with a warning on each and a count in every summary', async () => {
  const dir = workspace('unasserted');
  writeCases(dir, 'cases.jsonl', [
    { id: 'bare', input: 'hello' },
    { id: 'empty-list', input: 'hello', assert: [] },
    { id: 'checked', input: 'hello', assert: { type: 'contains', value: 'hello' } },
    { id: 'with-expected', input: 'hello', expected: 'hello' },
    { id: 'skipped', input: 'hello', skip: true },
  ]);
  const outputs = ['report.md', 'report.html', 'report.json'];
  const run = await runCli(['test', '-i', 'cases.jsonl', '-n', 'echo', ...outputs.flatMap((o) => ['-o', o])], {
    cwd: dir,
  });
  assert.equal(run.code, 0, 'Yao passes them: the verdict is unchanged');
  assert.match(run.stdout, /\[bare\].*PASSED.*\n {2}⚠ no assertion: the case passes whatever the agent answers/);
  assert.match(run.stdout, / {2}⚠ 2 cases have no assertion: they pass whatever the agent answers/);
  assert.doesNotMatch(run.stdout, /\[checked\].*PASSED.*\n {2}⚠/);

  const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));
  assert.equal(report.summary.unasserted, 2);
  assert.equal(report.summary.passed, 4);
  const warnings = Object.fromEntries(
    report.results.map((r: { id: string; warnings?: string[] }) => [r.id, r.warnings]),
  );
  assert.deepEqual(warnings, {
    bare: [WARNING],
    'empty-list': [WARNING],
    checked: undefined,
    'with-expected': undefined,
    skipped: undefined,
  });

  const markdown = readFileSync(join(dir, 'report.md'), 'utf8');
  assert.match(markdown, /\| No Assertion \| ⚠ 2 cases have no assertion: they pass whatever the agent answers \|/);
  assert.match(markdown, /### .*bare - passed[^#]*\*\*Warning:\*\* no assertion: the case passes/);
  const html = readFileSync(join(dir, 'report.html'), 'utf8');
  assert.match(html, /<div class="card-value">2<\/div><div class="card-label">No Assertion<\/div>/);
  assert.match(html, /"warnings":"no assertion: the case passes whatever the agent answers/);
});
