import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { agentest, fixture } from './helpers.js';

test('what hooks print (BeforeAll, Before, an assistant hook, After, AfterAll) is in -v output and in every report', async () => {
  const dir = fixture({
    'app.yao': '{"name": "hooks-app"}\n',
    'assistants/talky/package.yao': '{"name": "talky"}\n',
    'assistants/talky/src/index.ts':
      '// @ts-nocheck\nexport function Next(ctx, payload) { console.log("next-hook-line"); return { data: "reply" }; }\n',
    'assistants/talky/src/env_test.ts': `// @ts-nocheck
export function BeforeAll(ctx, cases) { console.log('before-all-line'); }
export function Before(ctx, testCase) { console.log('before-line ' + testCase.id); }
export function After(ctx, testCase, result) { log.Info('after-line %s', testCase.id); }
export function AfterAll(ctx, results) { console.log('after-all-line'); }
`,
    'assistants/talky/tests/inputs.jsonl':
      '{"id": "K1", "input": "hi", "before": "env_test.Before", "after": "env_test.After", "assert": {"type": "equals", "value": "reply"}}\n',
    'agentest.config.json': JSON.stringify({
      reporters: [
        'console',
        ...[
          ['json', 'report.json'],
          ['jsonl', 'run.jsonl'],
          ['markdown', 'report.md'],
          ['html', 'report.html'],
          ['junit', 'junit.xml'],
          ['summary', 'summary.txt'],
        ].map(([name, output]) => [name, { output }]),
      ],
    }),
  });
  const run = await agentest(
    [
      'test',
      '-i',
      'assistants/talky/tests/inputs.jsonl',
      '-n',
      'talky',
      '-v',
      '--before',
      'env_test.BeforeAll',
      '--after',
      'env_test.AfterAll',
      '--no-jsonl',
    ],
    { cwd: dir, env: { CI: '' } },
  );
  assert.equal(run.code, 0, run.stderr + run.stdout);
  const caseLines = [/\[Before\] before-line K1/, /next-hook-line/, /\[After\] .*after-line K1/];
  const header = run.stdout.slice(0, run.stdout.indexOf('Running Tests'));
  assert.match(header, /BeforeAll output:\n\s+│ before-all-line/, 'BeforeAll output is in the header');
  const summary = run.stdout.slice(run.stdout.lastIndexOf('Summary'));
  assert.match(summary, /AfterAll output:\n\s+│ after-all-line/, 'AfterAll output is in the summary');
  for (const line of caseLines) assert.match(run.stdout, line, `-v shows ${line}`);
  for (const file of ['report.json', 'run.jsonl', 'report.md', 'report.html', 'junit.xml']) {
    const text = readFileSync(join(dir, file), 'utf8');
    for (const line of [/before-all-line/, /after-all-line/, /before-line K1/, /next-hook-line/, /after-line K1/])
      assert.match(text, line, `${file} holds ${line}`);
  }
  const summaryText = readFileSync(join(dir, 'summary.txt'), 'utf8');
  assert.match(summaryText, /BeforeAll output:\n {2}before-all-line/);
  assert.match(summaryText, /AfterAll output:\n {2}after-all-line/);
});
