// The examples of the docs pages that need the example app, the kit example, cassettes or shards, taken from
// the pages as a reader copies them and run through the CLI, with the outcome each page states (the pages'
// other examples: doc-examples.test.ts).
import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { lines, readDoc, readJson, sectionBlock } from './doc-blocks.js';
import { exampleApp } from './help-example-lines.js';
import { fixture } from './helpers.js';
import { agentestInProcess as agentest } from './in-process.js';

test("docs/coverage.md: the example app's script tests with --coverage print the table it shows, and its minimums fail the run with the line it shows", async () => {
  const doc = readDoc('docs/coverage.md');
  const app = exampleApp();
  writeFileSync(join(app, 'agentest.config.ts'), sectionBlock(doc, 'Minimums that join the verdict', 'ts'));
  const [command, , ...table] = lines(sectionBlock(doc, 'Coverage of scripts and hooks', ''));
  assert.equal(command, '$ agentest test -i scripts.expense.setup --coverage');
  const run = await agentest(['test', '-i', 'scripts.expense.setup', '--coverage'], { cwd: app });
  assert.equal(run.code, 1, 'below a minimum: DO NOT SHIP');
  const printed = lines(run.stdout).map((line) => line.trimEnd());
  const at = printed.indexOf(table[0]!);
  assert.deepEqual(printed.slice(at, at + table.length + 1), [
    ...table,
    sectionBlock(doc, 'Minimums that join the verdict', '').trimEnd(),
  ]);
});

test('docs/replay.md: a recorded call is the line it shows, a changed prompt under CI is the miss it shows, a budget stops with the line it shows', async () => {
  const doc = readDoc('docs/replay.md');
  const suite = (first: string, count: number) =>
    Array.from(
      { length: count },
      (_, i) => `{"id": "T${String(i + 1).padStart(3, '0')}", "input": "${i ? `question ${i}` : first}"}\n`,
    ).join('');
  // A mock connector is recorded as any other; at $1 a token, each case costs dollars.
  const dir = fixture({
    'tests/inputs.jsonl': suite('Extract keywords', 2),
    'agentest.config.mjs': `export default ${JSON.stringify({
      agents: { bot: { connector: 'shop' } },
      connectors: { shop: { type: 'mock', options: { default: 'Sure.' } } },
      prices: { shop: { input: 1_000_000, output: 1_000_000 } },
    })};`,
  });
  const run = (args: string[], env: NodeJS.ProcessEnv = { CI: '' }) =>
    agentest(['test', '-i', 'tests/inputs.jsonl', '-n', 'bot', '--no-history', '-o', 'report.json', ...args], {
      cwd: dir,
      env,
    });

  assert.equal((await run(['--record'])).code, 0);
  const shown = lines(sectionBlock(doc, 'What is recorded, and where', 'json'))[0]!;
  const recorded = lines(readFileSync(join(dir, 'tests/__cassettes__/inputs/T001.jsonl'), 'utf8'))[0]!;
  const key = (line: string) => line.slice(0, line.indexOf(',"source"'));
  assert.equal(key(recorded), key(shown));
  // The page elides what a request and a reply hold (`[…]`, `{…}`); their keys are the record's.
  const elided = JSON.parse(shown.replaceAll('[…]', '[]').replaceAll('{…}', '{}'));
  assert.deepEqual(Object.keys(JSON.parse(recorded)), Object.keys(elided));

  writeFileSync(join(dir, 'tests/inputs.jsonl'), suite('Extract key terms', 2));
  assert.equal((await run([], { CI: '1' })).code, 1, 'lockdown: the miss fails its case');
  const [first, second, , hint] = lines(sectionBlock(doc, 'A miss', 'text'));
  const miss = readJson(join(dir, 'report.json')).results[0];
  assert.equal(miss.status, 'error');
  assert.deepEqual(
    [lines(miss.error)[0], lines(miss.error).at(-1)],
    [`${first!.replace('✗ [T001] error: ', '')} ${second!.trim()}`, hint],
  );

  writeFileSync(join(dir, 'tests/inputs.jsonl'), suite('Extract keywords', 40));
  const stopped = await run(['--cassettes', 'off', '--max-cost', '2']);
  assert.equal(stopped.code, 1);
  const budget = sectionBlock(doc, 'Usage, cost and budgets', 'text').trim();
  const shape = new RegExp(
    `^${budget.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\d+(\\\.\d+)?/g, '[\\d.]+')}$`,
    'm',
  );
  assert.match(stopped.stderr, shape);
});

test('docs/kit.md "Terminal output": examples/support prints the rows, counts, metrics and verdict it shows', async () => {
  const shown = sectionBlock(readDoc('docs/kit.md'), 'Terminal output', '');
  const support = fileURLToPath(new URL('../../../examples/support/', import.meta.url));
  const run = await agentest(['test', '-i', '.', '--no-jsonl', '--no-history'], { cwd: support });
  assert.equal(run.code, 1, 'one case fails on purpose: DO NOT SHIP');
  // Latencies vary from run to run, and the output file's name with the clock: the rest is as shown.
  const steady = (line: string) =>
    line
      .trimEnd()
      .replace(/ +(\d+ms|—)$/, '')
      .replace(/Avg Latency \d+ms/, 'Avg Latency');
  const printed = new Set(lines(run.stdout).map(steady));
  for (const line of lines(shown).filter((line) => line.trim() && !line.includes('Output:')))
    assert.ok(printed.has(steady(line)), `printed: ${line}\n${run.stdout}`);
});

test('docs/dynamic.md: its coffee-order case, run against the example app’s shop and shopper, ends with the line it shows', async () => {
  const doc = readDoc('docs/dynamic.md');
  const app = exampleApp();
  const written = JSON.stringify(JSON.parse(sectionBlock(doc, 'Dynamic cases', 'json')));
  writeFileSync(join(app, 'assistants/shop/tests/doc.jsonl'), `${written}\n`);
  const run = await agentest(
    ['test', '-i', 'assistants/shop/tests/doc.jsonl', '-n', 'shop', '--runs', '1', '-o', 'report.json'],
    { cwd: app },
  );
  assert.equal(run.code, 0, run.stdout + run.stderr);
  const shown = /the console prints a line under the case\s+\(`([^`]+)`/.exec(doc)?.[1];
  assert.ok(shown, 'docs/dynamic.md quotes the console line');
  assert.ok(lines(run.stdout).includes(`  └─ ${shown}`), run.stdout);
  const { dynamic } = readJson(join(app, 'report.json')).results[0].details;
  assert.deepEqual(
    [dynamic.simulator, dynamic.max_turns, dynamic.total_turns, dynamic.end_reason],
    ['shopper', 8, 3, 'completed'],
  );
});

test('docs/scale.md "Merging the shards": a missing shard and a shard given twice stop the merge with the messages it shows', async () => {
  const shown = lines(sectionBlock(readDoc('docs/scale.md'), 'Merging the shards', '', 1));
  const cases = Array.from({ length: 12 }, (_, i) => `{"id": "T${i}", "input": "hi", "expected": "hi"}\n`).join('');
  const dir = fixture({ 'tests/inputs.jsonl': cases });
  const blob = (k: number) => join(dir, `blobs/tests-inputs-jsonl.8123456789-1.shard-${k}-of-4.jsonl`);
  for (const k of [1, 2, 3, 4]) {
    const args = ['--shard', `${k}/4`, '--run-id', '8123456789-1', '--blob-dir', 'blobs', '--no-jsonl', '--no-history'];
    assert.equal((await agentest(['test', '-i', 'tests/inputs.jsonl', '-n', 'echo', ...args], { cwd: dir })).code, 0);
  }
  rmSync(blob(3));
  const missing = await agentest(['merge', 'blobs', '--no-jsonl', '--no-history'], { cwd: dir });
  assert.equal(missing.code, 2);
  assert.equal(lines(missing.stderr)[0], shown[0]);

  const second = readFileSync(blob(2), 'utf8');
  rmSync(blob(2));
  writeFileSync(join(dir, 'blobs/a.jsonl'), second);
  writeFileSync(join(dir, 'blobs/b.jsonl'), second);
  const duplicated = await agentest(
    ['merge', 'blobs/a.jsonl', 'blobs/b.jsonl', blob(1), blob(4), '--no-jsonl', '--no-history'],
    { cwd: dir },
  );
  assert.equal(duplicated.code, 2);
  assert.equal(lines(duplicated.stderr)[0], shown[1]);
});
