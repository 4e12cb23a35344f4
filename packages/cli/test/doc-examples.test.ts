// The examples of the docs pages no other test runs, taken from the pages as a reader copies them (the
// fenced blocks under a heading), run through the CLI, with the outcome each page states.
import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { parse as parseYaml } from 'yaml';
import { readDoc, sectionBlock, sectionBlocks } from './doc-blocks.js';
import { exampleApp } from './help-example-lines.js';
import { agentest as spawnAgentest, fixture } from './helpers.js';
import { agentestInProcess as agentest } from './in-process.js';

const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8'));
const lines = (text: string) => text.trimEnd().split('\n');

test('README "Quick start": the tests/inputs.jsonl it shows loads as four cases, T004 skipped', async () => {
  const dir = fixture({ 'tests/inputs.jsonl': sectionBlock(readDoc('README.md'), 'Quick start', 'jsonl') });
  const run = await agentest(['test', '-i', 'tests/inputs.jsonl', '-n', 'echo', '--list'], { cwd: dir });
  assert.equal(run.code, 0, run.stderr);
  assert.deepEqual(
    lines(run.stdout).map((line) => line.split(/ {2,}/).slice(0, 2)),
    ['T001', 'T002', 'T003', 'T004'].map((id, i) => [id, `tests/inputs.jsonl:${i + 1}`]),
  );
  assert.match(run.stdout, /^T004 .*\(skip\)$/m);
});

test('docs/cli.md "Tags and --list": the tagged cases, the --list output and the NO_CASES messages it shows', async () => {
  const doc = readDoc('docs/cli.md');
  const section = 'Tags and `--list`';
  const dir = fixture({ 'tests/inputs.jsonl': sectionBlock(doc, section, 'jsonl') });
  const [prompt, ...listed] = lines(sectionBlock(doc, section, ''));
  assert.equal(prompt, "$ agentest test -i tests/inputs.jsonl --list --tag '!slow'");
  const list = await agentest(['test', '-i', 'tests/inputs.jsonl', '--list', '--tag', '!slow'], { cwd: dir });
  assert.equal(list.code, 0, list.stderr);
  assert.deepEqual([...lines(list.stdout), ...lines(list.stderr)], listed);

  for (const [args, message] of [
    [['--tag', 'smok'], 'no case has tag "smok" (did you mean "smoke"?); tags in this suite: billing, slow, smoke'],
    [['--run', 'T001', '--tag', 'slow'], '--run T001 --tag slow matched no case'],
  ] as const) {
    assert.ok(doc.includes(`\`${message}\``), `docs/cli.md quotes: ${message}`);
    const run = await agentest(['test', '-i', 'tests/inputs.jsonl', '-n', 'echo', ...args], { cwd: dir });
    assert.equal(run.code, 2);
    assert.equal(lines(run.stderr)[0], `error[NO_CASES]: ${message}`);
  }
});

/** A project whose `bot` answers the greeting in greeting.txt, and an order with a fresh id and time. */
function snapshotProject(suite: string): string {
  return fixture({
    'greeting.txt': 'Hello! How can I help?',
    'tests/chat.jsonl': suite,
    'agentest.config.mjs': `
import { readFileSync } from 'node:fs';
let orders = 0;
export default {
  agents: {
    bot: {
      async run(messages) {
        if (messages.at(-1).content === 'Say hello') {
          const text = readFileSync(new URL('./greeting.txt', import.meta.url), 'utf8');
          return { content: text, text };
        }
        return { content: { total: 3, status: 'open', id: 'o' + ++orders, created_at: Date.now() }, text: '' };
      },
    },
  },
};`,
  });
}

test('docs/snapshots.md: the snapshot cases write the file it shows, a changed reply fails with its diff, a removed case leaves the obsolete entry it shows', async () => {
  const doc = readDoc('docs/snapshots.md');
  const suite = sectionBlock(doc, 'The `snapshot` assertion', 'jsonl');
  const dir = snapshotProject(suite);
  const file = join(dir, 'tests/__snapshots__/chat.snap.jsonl');
  const args = ['test', '-i', 'tests/chat.jsonl', '-n', 'bot', '-o', 'report.json'];

  const first = await agentest(args, { cwd: dir });
  assert.equal(first.code, 0, first.stdout + first.stderr);
  assert.equal(readFileSync(file, 'utf8'), sectionBlock(doc, 'The file', 'jsonl'));

  writeFileSync(join(dir, 'greeting.txt'), 'Hi there! How can I help?');
  const changed = await agentest(args, { cwd: dir });
  assert.equal(changed.code, 1);
  const greet = readJson(join(dir, 'report.json')).results.find((r: { id: string }) => r.id === 'greet');
  assert.equal(greet.error, sectionBlock(doc, 'Modes', '').trimEnd());
  assert.equal(readFileSync(file, 'utf8'), sectionBlock(doc, 'The file', 'jsonl'), 'a mismatch leaves the file');

  writeFileSync(join(dir, 'greeting.txt'), 'Hello! How can I help?');
  writeFileSync(join(dir, 'tests/chat.jsonl'), lines(suite)[0] + '\n');
  const removed = await spawnAgentest(args, { cwd: dir }); // the notice goes to the process's stderr
  assert.equal(removed.code, 0, removed.stdout + removed.stderr);
  const [printed, reported] = sectionBlocks(doc, 'Obsolete entries');
  assert.ok(removed.stderr.includes(printed!.text), removed.stderr);
  assert.deepEqual(readJson(join(dir, 'report.json')).summary.snapshots, JSON.parse(`{${reported!.text}}`).snapshots);
});

test('docs/judges.md: its cases, judged by the mock judge it shows, pass; an unknown judge stops the run with the message it shows', async () => {
  const doc = readDoc('docs/judges.md');
  const judge = { type: 'mock', options: parseYaml(sectionBlock(doc, 'Judges offline', 'yaml')) };
  const config = (connectors: Record<string, unknown>) => `
export default {
  agents: {
    support: { run: async () => ({ content: '1. Open Settings 2. Reset. Your tracking number is SF123', text: '' }) },
    'tests.validator-agent': { connector: 'judge' },
  },
  connectors: ${JSON.stringify(connectors)},
};`;
  const dir = fixture({
    'tests/inputs.jsonl': sectionBlock(doc, 'In a JSONL case', 'jsonl'),
    'agentest.config.mjs': config({ judge, 'openai.gpt-4o-mini': judge }),
  });
  const run = await agentest(['test', '-i', 'tests/inputs.jsonl', '-n', 'support', '-o', 'report.json'], { cwd: dir });
  assert.equal(run.code, 0, run.stdout + run.stderr);
  const [sampled, metadata] = readJson(join(dir, 'report.json')).results;
  assert.deepEqual(
    [sampled.assertions[0].judge.samples, sampled.assertions[0].judge.agreement, sampled.assertions[0].message],
    [3, '3/3', 'gives the tracking number'],
  );
  assert.equal(metadata.assertions[0].judge.use, 'connector:openai.gpt-4o-mini');

  // "A judge that does not exist": the fourth line of the suite names connector:judeg; the config has `judge`.
  const shown = lines(sectionBlock(doc, 'What the judge answers', ''));
  const misspelt = fixture({
    'tests/inputs.jsonl':
      [1, 2, 3].map((n) => `{"id": "T0${n}", "input": "hi"}\n`).join('') +
      '{"id": "T04", "input": "hi", "assert": {"type": "agent", "use": "connector:judeg", "value": "polite"}}\n',
    'agentest.config.mjs': config({ judge }),
  });
  const stopped = await agentest(['test', '-i', 'tests/inputs.jsonl', '-n', 'support'], { cwd: misspelt });
  assert.equal(stopped.code, 2);
  assert.equal(lines(stopped.stderr)[0], shown[0]);
});

test('docs/compare.md "An example": six of sixteen cases regressing, then two, then with three runs a side, print what it shows', async () => {
  const doc = readDoc('docs/compare.md');
  const [table, detected, severalRuns] = sectionBlocks(doc, 'An example').filter((block) => block.lang === '');
  const suite = (broken: number) =>
    Array.from({ length: 16 }, (_, i) => {
      const input = i < broken ? 'hello' : 'hello goodbye';
      return `{"id": "T${String(i).padStart(2, '0')}", "input": "${input}", "assert": {"type": "contains", "value": "goodbye"}}\n`;
    }).join('');
  const dir = fixture({ 'tests/inputs.jsonl': suite(0) });
  const side = async (broken: number, output: string, runs = '1') => {
    writeFileSync(join(dir, 'tests/inputs.jsonl'), suite(broken));
    const args = ['test', '-i', 'tests/inputs.jsonl', '-n', 'echo', '--runs', runs, '-o', output, '--no-history'];
    assert.equal((await agentest(args, { cwd: dir })).code, broken ? 1 : 0);
  };
  /** The lines of a shown block that do not depend on the clock: no time stamps, no latencies. */
  const stable = (block: string) =>
    lines(block).filter(
      (line) => line.trim() && !/^ {2}(base|head|Latency) /.test(line) && line !== 'agentest compare',
    );

  await side(0, 'runs/main.jsonl');
  await side(6, 'runs/head.jsonl');
  const six = await agentest(['compare', 'runs/main.jsonl', 'runs/head.jsonl'], { cwd: dir });
  assert.equal(six.code, 1, 'a significant regression');
  for (const line of stable(table!.text)) assert.ok(lines(six.stdout).includes(line), `${line}\n${six.stdout}`);
  assert.match(six.stdout, /^ {2}base {2}tests\/inputs\.jsonl · runs\/main\.jsonl · agent echo · 16 cases × 1 run · /m);

  await side(2, 'runs/two.jsonl');
  const two = await agentest(['compare', 'runs/main.jsonl', 'runs/two.jsonl', '--detect', '0.05'], { cwd: dir });
  assert.equal(two.code, 0, 'two flips out of 16 are no significant change');
  for (const line of stable(detected!.text)) assert.ok(lines(two.stdout).includes(line), `${line}\n${two.stdout}`);

  await side(0, 'runs/main3.jsonl', '3');
  await side(6, 'runs/head3.jsonl', '3');
  const runs = await agentest(['compare', 'runs/main3.jsonl', 'runs/head3.jsonl'], { cwd: dir });
  assert.equal(runs.code, 1);
  for (const line of stable(severalRuns!.text)) assert.ok(lines(runs.stdout).includes(line), `${line}\n${runs.stdout}`);
});

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
