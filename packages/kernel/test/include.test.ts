import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AgentestError, createKernel } from '../src/index.js';
import { collector, inlinePlugins, plan, testCase } from './helpers.js';

const cases = ['a1', 'a2', 'b1', 'b2'].map((id) => testCase(id, { name: `name of ${id}` }));

test("the plan's include narrows what --run selects, and sees the whole case", async () => {
  const c = collector();
  const seen: string[] = [];
  const outcome = await createKernel({ plugins: [...inlinePlugins(cases), c.plugin] }).run(
    plan({
      runs: 2,
      filter: /^a/,
      include: (testCase) => (seen.push(testCase.name ?? ''), testCase.id.endsWith('2')),
    }),
  );
  assert.deepEqual(
    c.events.filter((e) => e.type === 'result').map((e) => e.id),
    ['a2'],
  );
  assert.equal(c.events[0]!.total_cases, 1);
  assert.equal(outcome.summary.total_runs, 2, 'a case keeps all its runs');
  assert.ok(!seen.some((name) => name.includes('b')), 'include is asked only about what --run selects');
});

test('an include that takes no case is an empty run, not an error, and the start event names the shard', async () => {
  const c = collector();
  const shard = { index: 3, total: 4, source: '--shard' };
  const outcome = await createKernel({ plugins: [...inlinePlugins(cases), c.plugin] }).run(
    plan({ include: () => false, shard }),
  );
  assert.deepEqual(outcome.errors, []);
  assert.equal(outcome.summary.total, 0);
  const start = c.events.find((e) => e.type === 'start')!;
  assert.deepEqual(start.shard, shard);
  assert.equal(start.total_cases, 0);
});

test('a --run that matches nothing stays an error, whatever include says', async () => {
  await assert.rejects(
    createKernel({ plugins: inlinePlugins(cases) }).run(plan({ filter: /^zz/, include: () => true })),
    (error: unknown) => error instanceof AgentestError && error.code === 'NO_CASES',
  );
});
