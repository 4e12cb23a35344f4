import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createKernel, type RunPolicy } from '../src/index.js';
import { collector, inlinePlugins, plan, testCase } from './helpers.js';

test('a run policy stops a case early and its last answer is recorded on the case', async () => {
  const calls: Record<string, number> = {};
  const events = collector();
  // Stops "steady" after its second run; lets "long" run to the maximum.
  const policy: RunPolicy = (c, runs, max) =>
    c.id === 'steady' && runs.length === 2
      ? { stop: true, decision: 'accepted', reason: 'two passes' }
      : { stop: false, ...(runs.length === max ? { decision: 'undecided' } : {}) };
  const outcome = await createKernel({
    plugins: [
      ...inlinePlugins([testCase('steady'), testCase('long')], async (c) => {
        calls[c.id] = (calls[c.id] ?? 0) + 1;
        return {};
      }),
      events.plugin,
    ],
  }).run(plan({ runs: 5, runPolicy: policy }));
  assert.deepEqual(calls, { steady: 2, long: 5 });
  assert.equal(outcome.summary.total_runs, 7);
  const results = events.events.filter((e) => e.type === 'result');
  assert.deepEqual(results[0]!.run_policy, { runs: 2, max: 5, decision: 'accepted', reason: 'two passes' });
  assert.deepEqual(results[1]!.run_policy, { runs: 5, max: 5, decision: 'undecided' });
  assert.equal((results[0]!.stability as { runs: number }).runs, 2);
});

test('without a run policy a case runs the fixed number of times and carries no run_policy', async () => {
  const events = collector();
  await createKernel({ plugins: [...inlinePlugins([testCase('a')], async () => ({})), events.plugin] }).run(
    plan({ runs: 3 }),
  );
  const result = events.events.find((e) => e.type === 'result')!;
  assert.equal((result.runs as unknown[]).length, 3);
  assert.equal('run_policy' in result, false);
});

test('an order puts the selected cases in the order it returns, after --run selected them', async () => {
  const seen: string[] = [];
  const cases = ['a', 'b', 'c', 'd'].map((id) => testCase(id));
  await createKernel({
    plugins: inlinePlugins(cases, async (c) => {
      seen.push(c.id);
      return {};
    }),
  }).run(plan({ filter: /[abc]/, order: (selected) => [...selected].reverse() }));
  assert.deepEqual(seen, ['c', 'b', 'a']);
});
