import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fixture, jsonl } from './helpers.js';
import { agentestInProcess as agentest } from './in-process.js';

const SUITE = jsonl([
  { id: 'T1', input: 'Hello, what is the price of coffee?', assert: { type: 'contains', value: 'price' } },
  { id: 'T2', input: 'Say HELLO please', assert: { type: 'regex', value: 'HELLO' } },
]);

function summary(dir: string, file: string) {
  return JSON.parse(readFileSync(join(dir, file), 'utf8'));
}

test('--fuzz N runs N perturbed variants per case and reports robustness: the same seed, the same variants', async () => {
  const dir = fixture({ 'cases.jsonl': SUITE });
  const args = ['test', '-i', 'cases.jsonl', '-n', 'echo', '--fuzz', '5', '--seed', '7'];
  const first = await agentest([...args, '-o', 'a.json'], { cwd: dir });
  const again = await agentest([...args, '-o', 'b.json'], { cwd: dir });
  const other = await agentest(
    ['test', '-i', 'cases.jsonl', '-n', 'echo', '--fuzz', '5', '--seed', '8', '-o', 'c.json'],
    { cwd: dir },
  );
  assert.equal(first.code, 1, 'a broken variant is a failed case');
  const a = summary(dir, 'a.json');
  const inputs = (r: { results: { id: string; input: string }[] }) => r.results.map((c) => [c.id, c.input]);
  assert.equal(a.results.length, 12, 'two cases, five variants each');
  assert.deepEqual(inputs(a), inputs(summary(dir, 'b.json')), 'the same seed gives the same variants');
  assert.notDeepEqual(inputs(a), inputs(summary(dir, 'c.json')), 'another seed, other variants');
  assert.equal(again.code, first.code);
  assert.equal(other.code === 0 || other.code === 1, true);

  const variants = a.results.filter((r: { id: string }) => r.id.startsWith('T2~fuzz'));
  assert.deepEqual(
    variants.map((v: { metadata: { fuzz: { perturbation: string } } }) => v.metadata.fuzz.perturbation),
    ['typos', 'case', 'whitespace', 'punctuation', 'lookalikes'],
  );
  for (const v of variants) assert.notEqual(v.input, 'Say HELLO please', 'every variant differs from the original');

  const [t1, t2] = a.summary.robustness;
  assert.equal(t1.id, 'T1');
  assert.equal(t2.id, 'T2');
  assert.equal(t2.original, 'passed');
  assert.equal(t2.variants, 5);
  assert.equal(t2.passed + (t2.broken?.length ?? 0), 5);
  assert.ok(
    t2.broken.some((b: { perturbation: string }) => b.perturbation === 'lookalikes'),
    'look-alike letters break an exact regex',
  );
  for (const b of t2.broken) assert.match(b.error, /does not match pattern 'HELLO'/);
  assert.match(
    first.stdout,
    /Robustness \(--fuzz\): 2 cases fuzzed \(\d passed every variant\)\n {2}\[T1\] passed; variants \d\/5 passed/,
  );
});

test('--fuzz and --seed take whole numbers; --dry-run lists the variants', async () => {
  const dir = fixture({ 'cases.jsonl': SUITE });
  let run = await agentest(['test', '-i', 'cases.jsonl', '-n', 'echo', '--fuzz', '0'], { cwd: dir });
  assert.equal(run.code, 2);
  assert.match(run.stderr, /--fuzz must be a whole number of at least 1/);
  run = await agentest(['test', '-i', 'cases.jsonl', '-n', 'echo', '--fuzz', '1', '--seed', 'x'], { cwd: dir });
  assert.equal(run.code, 2);
  assert.match(run.stderr, /--seed must be a whole number/);
  run = await agentest(['test', '-i', 'cases.jsonl', '-n', 'echo', '--fuzz', '2', '--dry-run'], { cwd: dir });
  assert.equal(run.code, 0, run.stderr);
  assert.deepEqual(
    run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line).id),
    ['T1', 'T1~fuzz1', 'T1~fuzz2', 'T2', 'T2~fuzz1', 'T2~fuzz2'],
  );
});

test('--fuzz reports the cases it could not fuzz, with why, in every report, and counts them', async () => {
  const dir = fixture({
    'cases.jsonl': jsonl([
      { id: 'T1', input: 'Hello, what is the price of coffee?' },
      {
        id: 'M1',
        input: [{ role: 'user', content: [{ type: 'text', text: 'What is in this picture?' }] }],
      },
      { id: 'M2', input: [{ role: 'user', content: '   ' }] },
    ]),
  });
  const run = await agentest(
    ['test', '-i', 'cases.jsonl', '-n', 'echo', '--fuzz', '2', ...['-o', 'r.json', '-o', 'r.md', '-o', 'r.html']],
    { cwd: dir },
  );
  assert.equal(run.code, 0, run.stdout + run.stderr);
  const report = summary(dir, 'r.json');
  assert.deepEqual(
    report.results.map((r: { id: string }) => r.id),
    ['T1', 'T1~fuzz1', 'T1~fuzz2', 'M1', 'M2'],
  );
  assert.deepEqual(report.summary.not_fuzzed, [
    { id: 'M1', reason: 'its last user message is not plain text (content parts)' },
    { id: 'M2', reason: 'its last user message is empty' },
  ]);
  const line = '1 case fuzzed (1 passed every variant); 2 not fuzzed';
  assert.match(run.stdout, new RegExp(`Robustness \\(--fuzz\\): ${escape(line)}\\n`));
  assert.match(run.stdout, /\[M1\] not fuzzed: its last user message is not plain text \(content parts\)/);
  const markdown = readFileSync(join(dir, 'r.md'), 'utf8');
  assert.match(markdown, new RegExp(`## Robustness\\n\\n${escape(line)}\\n`));
  assert.match(markdown, /\*\*Not fuzzed\*\*[\s\S]*\| M2 \| its last user message is empty \|/);
  const html = readFileSync(join(dir, 'r.html'), 'utf8');
  assert.match(html, new RegExp(`<p class="robustness-line">${escape(line)}</p>`));
  assert.match(html, /<h3>Not fuzzed<\/h3>[\s\S]*<td>M1<\/td><td>its last user message is not plain text/);
});

test('--fuzz on script tests runs them as they are and says so, rather than showing no robustness', async () => {
  const dir = fixture({
    'app.yao': '{}',
    'assistants/demo/package.yao': '{}',
    'assistants/demo/src/demo_test.ts': 'export function TestSum(t: any) {\n  t.assert.Equal(1 + 1, 2);\n}\n',
  });
  const run = await agentest(['test', '-i', 'scripts.demo.demo', '--fuzz', '3', '-o', 'r.json'], { cwd: dir });
  assert.equal(run.code, 0, run.stdout + run.stderr);
  const report = summary(dir, 'r.json');
  assert.equal(report.results.length, 1, 'no variants of a script test');
  assert.deepEqual(report.summary.not_fuzzed, [{ id: report.summary.not_fuzzed[0].id, reason: SCRIPT_REASON }]);
  assert.ok(run.stdout.includes(`Robustness (--fuzz): 0 cases fuzzed; 1 not fuzzed (${SCRIPT_REASON})`), run.stdout);
});

const SCRIPT_REASON = 'a script case: its code makes its own calls, there is no input message to perturb';

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
