import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createKernel } from '../src/index.js';
import { collector, inlinePlugins, plan, testCase } from './helpers.js';

test('a case whose runs all skip at run time is skipped, not passed', async () => {
  const outcome = await createKernel({
    plugins: inlinePlugins([testCase('s'), testCase('p')], async (tc) => ({
      status: tc.id === 's' ? 'skipped' : 'passed',
    })),
  }).run(plan());
  assert.equal(outcome.summary.skipped, 1);
  assert.equal(outcome.summary.passed, 1);
  assert.deepEqual(outcome.errors, []);
});

test('a failing before hook makes its case an error, skips its after, and the run goes on', async () => {
  const afters: string[] = [];
  const cases = [testCase('a'), testCase('b')];
  const [inline] = inlinePlugins(cases);
  const withHooks = {
    name: 'test:hooks',
    apply(api: Parameters<typeof inline.apply>[0]) {
      api.hooks.load.tapPromise({ name: 'test:hooks', stage: -1 }, async () => ({
        name: 'inline',
        needsAgent: true,
        cases: () => cases,
        lifecycle: {
          before: async (c) => {
            if (c.id === 'a') throw new Error('db down');
            return 'data';
          },
          after: async (c) => void afters.push(c.id),
        },
      }));
    },
  };
  const c = collector();
  const outcome = await createKernel({ plugins: [inline!, withHooks, c.plugin] }).run(plan());
  assert.equal(outcome.summary.errors, 1);
  assert.equal(c.events.find((e) => e.type === 'result' && e.id === 'a')!.error, 'before hook failed: db down');
  assert.deepEqual(afters, ['b']);
});

test('a failing after hook keeps the verdict but is kept on its case as a warning', async () => {
  const cases = [testCase('a'), testCase('b')];
  const [inline] = inlinePlugins(cases);
  const withHooks = {
    name: 'test:hooks',
    apply(api: Parameters<typeof inline.apply>[0]) {
      api.hooks.load.tapPromise({ name: 'test:hooks', stage: -1 }, async () => ({
        name: 'inline',
        needsAgent: true,
        cases: () => cases,
        lifecycle: {
          after: async (c) => {
            if (c.id === 'a') throw new Error('cleanup failed');
          },
        },
      }));
    },
  };
  const c = collector();
  const outcome = await createKernel({ plugins: [inline!, withHooks, c.plugin] }).run(plan());
  assert.equal(outcome.summary.passed, 2);
  const results = c.events.filter((e) => e.type === 'result');
  assert.deepEqual(results.find((e) => e.id === 'a')!.warnings, ['after hook failed: cleanup failed']);
  assert.equal(results.find((e) => e.id === 'b')!.warnings, undefined);
});
