/**
 * `agentest merge` honours the config as `agentest test` does: the config's plugins hear and shape the
 * merged run, its reporters (by package name too) write it, and the run history records it as one run
 * of the whole suite (not with `--no-history`).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, stackFrames } from './helpers/cli.js';
import { readEvents, type Event } from './helpers/events.js';
import { NO_CI, writeDeterministicProject } from './helpers/sharded-suite.js';
import { workspace } from './helpers/workspace.js';

const IDS = Array.from({ length: 12 }, (_, i) => `case-${String(i).padStart(2, '0')}`);
// 7 of 12 cases pass every run: above the threshold, so the run ships and exits 0 despite its failures.
const TEST = ['test', '-i', 'cases.jsonl', '-n', 'det', '--runs', '2', '--threshold', 'pass_rate=0.5'];

/** A plugin that adds to the summary and says what it heard, in the config's plugins. */
const TALLY = `import { writeFileSync } from 'node:fs';
const tally = {
  name: 'tally',
  apply(kernel) {
    let results = 0;
    kernel.hooks.summary.tap('tally', (summary) => ({ ...summary, tallied: true }));
    kernel.hooks.report.tap('tally', (event) => {
      if (event.type === 'result') results++;
      if (event.type === 'summary') writeFileSync('tally.json', JSON.stringify({ results, tallied: event.tallied }));
    });
  },
};
`;

/** A reporter installed as a package, which writes the ids of the cases it heard. */
const COUNT_REPORTER = `import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
export default (options) => ({
  name: 'count',
  apply(kernel) {
    const ids = [];
    kernel.hooks.report.tap('count', (event) => {
      if (event.type === 'result') ids.push(event.id);
      if (event.type === 'summary') writeFileSync(join(options.cwd, 'count.json'), JSON.stringify(ids));
    });
  },
});
`;

function writeConfiguredProject(dir: string): void {
  writeDeterministicProject(dir, IDS);
  const config = join(dir, 'agentest.config.mjs');
  const text = readFileSync(config, 'utf8');
  writeFileSync(
    config,
    `${TALLY}${text.replace('plugins: [', "reporters: ['agentest-reporter-count'],\n  plugins: [tally, ")}`,
  );
  const reporter = join(dir, 'node_modules', 'agentest-reporter-count');
  mkdirSync(reporter, { recursive: true });
  writeFileSync(join(reporter, 'package.json'), '{"name":"agentest-reporter-count","type":"module","main":"index.js"}');
  writeFileSync(join(reporter, 'index.js'), COUNT_REPORTER);
}

function historyRecords(dir: string): Event[] {
  const history = join(dir, '.agentest', 'history');
  return readdirSync(history).map((name) => JSON.parse(readFileSync(join(history, name), 'utf8')) as Event);
}

test('merge runs the config plugins and reporters over the whole run, and records it in the run history', async () => {
  const dir = workspace('merge-config');
  writeConfiguredProject(dir);
  const args = [...TEST, '--no-jsonl', '--no-history', '--run-id', 'cfg', '--blob-dir', 'blobs'];
  for (const shard of ['1/2', '2/2']) {
    const run = await runCli([...args, '--shard', shard], { cwd: dir, env: NO_CI });
    assert.ok(run.code === 0 || run.code === 1, run.stderr);
  }
  // The shards ran the plugin and the reporter on their parts: what they wrote goes, the merge's stays.
  rmSync(join(dir, 'tally.json'));
  rmSync(join(dir, 'count.json'));

  const merged = await runCli(['merge', 'blobs', '-o', 'merged.jsonl'], { cwd: dir, env: NO_CI });
  assert.equal(merged.code, 0, merged.stderr);
  assert.deepEqual(stackFrames(merged.stderr), []);
  assert.deepEqual(JSON.parse(readFileSync(join(dir, 'tally.json'), 'utf8')), { results: IDS.length, tallied: true });
  assert.equal(readEvents(join(dir, 'merged.jsonl')).at(-1)!.tallied, true, 'the plugin shaped the summary');
  assert.deepEqual(JSON.parse(readFileSync(join(dir, 'count.json'), 'utf8')), IDS);

  const records = historyRecords(dir);
  assert.equal(records.length, 1, 'the shards ran with --no-history: the one record is the merged run');
  assert.equal(records[0]!.input, 'cases.jsonl');
  assert.deepEqual((records[0]!.cases as Event[]).map((c) => c.id).sort(), IDS);

  const unrecorded = await runCli(['merge', 'blobs', '--no-history', '--no-jsonl'], { cwd: dir, env: NO_CI });
  assert.equal(unrecorded.code, 0, unrecorded.stderr);
  assert.equal(historyRecords(dir).length, 1, '--no-history leaves the merged run out of the history');
});
