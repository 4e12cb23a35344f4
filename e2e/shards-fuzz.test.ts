/**
 * `--fuzz` with `--shard`: a case and its perturbed variants are one unit, so they run on one shard
 * (hashed or balanced), each shard's robustness covers whole cases, and `agentest merge` reports the
 * same robustness as one unsharded run, the cases with nothing to perturb included.
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { runCli } from './helpers/cli.js';
import { readEvents, resultsById, type Event } from './helpers/events.js';
import { NO_CI } from './helpers/sharded-suite.js';
import { workspace, writeCases } from './helpers/workspace.js';

const IDS = Array.from({ length: 8 }, (_, i) => `case-${i}`);
/** Cases whose message is content parts: no text to perturb, so they run without variants. */
const PARTS = ['parts-0', 'parts-1', 'parts-2'];
const FUZZ = ['--fuzz', '2', '--seed', '5'];
let dir: string;

before(() => {
  dir = workspace('shards-fuzz');
  // The echo agent repeats the input: a variant whose typo lands in "hello" breaks its case.
  writeCases(dir, 'cases.jsonl', [
    ...IDS.map((id) => ({ id, input: `${id} hello there`, assert: { type: 'contains', value: 'hello' } })),
    ...PARTS.map((id) => ({ id, input: [{ role: 'user', content: [{ type: 'text', text: `${id} hello` }] }] })),
  ]);
});

async function run(args: string[], out: string): Promise<Event[]> {
  const result = await runCli(['test', '-i', 'cases.jsonl', '-n', 'echo', ...FUZZ, '-o', out, ...args], {
    cwd: dir,
    env: NO_CI,
  });
  assert.ok(result.code === 0 || result.code === 1, result.stderr);
  return readEvents(join(dir, out));
}

const summaryOf = (events: Event[]) => events.find((e) => e.type === 'summary')!;
const originalOf = (id: string) => id.replace(/~fuzz\d+$/, '');

test('each shard runs a case with all its variants, and the merge reports the robustness of one unsharded run', async () => {
  const whole = await run([], 'whole.jsonl');
  const shards = [];
  for (const index of [1, 2, 3])
    shards.push(
      await run(['--shard', `${index}/3`, '--run-id', 'fuzz', '--blob-dir', 'blobs'], `shard-${index}.jsonl`),
    );
  for (const events of shards) {
    const ids = [...resultsById(events).keys()].filter((id) => !PARTS.includes(id));
    for (const original of new Set(ids.map(originalOf)))
      assert.deepEqual(
        ids.filter((id) => originalOf(id) === original),
        [original, `${original}~fuzz1`, `${original}~fuzz2`],
        `${original} runs with its variants`,
      );
  }
  const merged = await runCli(['merge', 'blobs', '-o', 'merged.jsonl'], { cwd: dir, env: NO_CI });
  assert.ok(merged.code === 0 || merged.code === 1, merged.stderr);
  const robustness = summaryOf(readEvents(join(dir, 'merged.jsonl'))).robustness;
  assert.equal((robustness as unknown[]).length, IDS.length);
  assert.deepEqual(robustness, summaryOf(whole).robustness);
  const notFuzzed = summaryOf(readEvents(join(dir, 'merged.jsonl'))).not_fuzzed;
  assert.deepEqual(
    notFuzzed,
    PARTS.map((id) => ({ id, reason: 'its last user message is not plain text (content parts)' })),
  );
  assert.deepEqual(notFuzzed, summaryOf(whole).not_fuzzed);
});

test('balanced shards pack a case with its variants', async () => {
  await run([], 'earlier.jsonl');
  for (const index of [1, 2]) {
    const events = await run(
      ['--shard', `${index}/2`, '--shard-mode', 'balanced', '--shard-durations', 'earlier.jsonl'],
      `balanced-${index}.jsonl`,
    );
    const ids = [...resultsById(events).keys()].filter((id) => !PARTS.includes(id));
    for (const original of new Set(ids.map(originalOf)))
      assert.equal(ids.filter((id) => originalOf(id) === original).length, 3, `${original} runs with its variants`);
  }
});
