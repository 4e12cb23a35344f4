import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { agentest, fixture, jsonl } from './helpers.js';

interface Result {
  id: string;
  status: string;
  error?: string;
}

/**
 * A `--fuzz` variant's snapshot assertion compares the variant's output with its case's snapshot, as
 * every other assertion of the case holds the variant to the case's expectations. It never writes one
 * of its own: a variant that wrote its perturbed output as its snapshot would pass having checked
 * nothing, and put `T001~fuzz2` entries into the committed file.
 */
test('--fuzz: variants are held to their case snapshot and write none of their own', async () => {
  const dir = fixture({ 'chat.jsonl': jsonl([{ id: 'greet', input: 'hello world', assert: { type: 'snapshot' } }]) });
  const file = join(dir, '__snapshots__', 'chat.snap.jsonl');
  const run = (env: NodeJS.ProcessEnv) =>
    agentest(
      ['test', '-i', 'chat.jsonl', '-n', 'echo', '--fuzz', '2', '--no-jsonl', '--no-history', '-o', 'report.json'],
      {
        cwd: dir,
        env,
      },
    );
  const results = () => (JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as { results: Result[] }).results;

  // On CI nothing is written: the case fails as missing, and its variants cannot be judged at all.
  const ci = await run({ CI: '1' });
  assert.equal(ci.code, 1, ci.stdout + ci.stderr);
  assert.equal(existsSync(file), false);
  const unjudged = results().filter((r) => r.id.startsWith('greet~fuzz'));
  assert.equal(unjudged.length, 2);
  for (const variant of unjudged) {
    assert.equal(variant.status, 'error', JSON.stringify(variant));
    assert.match(variant.error!, /snapshot #1 of case greet is not recorded/);
  }

  // The echo agent answers each perturbed input with itself: no variant matches the case's snapshot.
  const first = await run({ CI: '' });
  assert.equal(first.code, 1, first.stdout + first.stderr);
  assert.equal(readFileSync(file, 'utf8'), '{"case":"greet","key":"#1","value":"hello world"}\n');
  const statuses = results().map((r) => [r.id, r.status]);
  assert.deepEqual(statuses, [
    ['greet', 'passed'],
    ['greet~fuzz1', 'failed'],
    ['greet~fuzz2', 'failed'],
  ]);
  assert.match(results()[1]!.error!, /does not match snapshot #1 of case greet in __snapshots__\/chat\.snap\.jsonl/);
});
