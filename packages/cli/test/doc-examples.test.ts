// The examples of the docs pages no other test runs, taken from the pages as a reader copies them (the
// fenced blocks under a heading), run through the CLI, with the outcome each page states.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parse as parseYaml } from 'yaml';
import { lines, readDoc, readJson, sectionBlock, sectionBlocks } from './doc-blocks.js';
import { fixture } from './helpers.js';
import { agentestInProcess as agentest } from './in-process.js';

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
  const removed = await agentest(args, { cwd: dir });
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
