// How a run stops early (--fail-fast, a plugin halting it, an interruption) and what it reports of the cases
// it never ran.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createKernel } from '../src/index.js';
import { collector, inlinePlugins, plan, testCase } from './helpers.js';

test('fail-fast stops starting new cases after the first failure and reports the rest as not run', async () => {
  const cases = Array.from({ length: 10 }, (_, i) =>
    testCase(`c${i}`, { assert: [{ type: 'contains', value: i === 2 ? 'nope' : `c${i}` }] }),
  );
  const c = collector();
  const outcome = await createKernel({ plugins: [...inlinePlugins(cases), c.plugin] }).run(plan({ failFast: true }));
  assert.equal(outcome.summary.total, 10);
  assert.equal(outcome.summary.passed, 2);
  assert.equal(outcome.summary.failed, 1);
  assert.equal(outcome.summary.skipped, 7);
  assert.equal(outcome.summary.not_run, 7);
  assert.equal(outcome.summary.halted, '--fail-fast after case c2 failed');
  const results = c.events.filter((e) => e.type === 'result') as { id: string; skip_reason?: string }[];
  assert.deepEqual(
    results.filter((r) => r.skip_reason).map((r) => r.id),
    ['c3', 'c4', 'c5', 'c6', 'c7', 'c8', 'c9'],
  );
  assert.equal(results.at(-1)!.skip_reason, 'not run: --fail-fast after case c2 failed');
});

test('fail-fast on the last case stops nothing: the run is not marked as stopped early', async () => {
  const cases = [testCase('c0'), testCase('c1', { assert: [{ type: 'contains', value: 'nope' }] })];
  const outcome = await createKernel({ plugins: inlinePlugins(cases) }).run(plan({ failFast: true }));
  assert.equal(outcome.summary.failed, 1);
  assert.equal(outcome.summary.halted, undefined);
  assert.equal(outcome.summary.not_run, undefined);
});

test('the cases a halted run never started are the ones reported as not run, whatever order ran them', async () => {
  const cases = Array.from({ length: 6 }, (_, i) =>
    testCase(`c${i}`, { assert: [{ type: 'contains', value: i === 4 ? 'nope' : `c${i}` }] }),
  );
  const c = collector();
  const reversed = plan({ failFast: true, order: (all) => [...all].reverse() });
  await createKernel({ plugins: [...inlinePlugins(cases), c.plugin] }).run(reversed);
  const results = c.events.filter((e) => e.type === 'result') as { id: string; skip_reason?: string }[];
  assert.deepEqual(
    results.map((r) => [r.id, r.skip_reason !== undefined]),
    [
      ['c5', false],
      ['c4', false],
      ['c0', true],
      ['c1', true],
      ['c2', true],
      ['c3', true],
    ],
  );
});

test('interruption stops scheduling, keeps finished results and marks the summary', async () => {
  const controller = new AbortController();
  const cases = Array.from({ length: 10 }, (_, i) => testCase(`c${i}`));
  const c = collector();
  const outcome = await createKernel({
    plugins: [
      ...inlinePlugins(cases, async (tc) => {
        if (tc.id === 'c2') controller.abort();
        return {};
      }),
      c.plugin,
    ],
  }).run(plan(), { interrupt: controller.signal });
  assert.equal(outcome.summary.interrupted, true);
  assert.equal(outcome.summary.total, 3);
  assert.equal(c.events.filter((e) => e.type === 'result').length, 3);
});
