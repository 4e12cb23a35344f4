import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AgentestPlugin } from '@agentest/kernel';
import { createDefaultKernel, createRunPlan } from '../src/index.js';
import { fixture } from './helpers.js';

// The ship verdict is a plugin of the default set: a config plugin of the same name judges instead.

const CASES = [
  { id: 'A', input: 'hello', assert: { type: 'contains', value: 'hello' } },
  { id: 'B', input: 'bye', assert: { type: 'contains', value: 'hello' } },
];

test('the default kernel judges thresholds: a failing case does not ship', async () => {
  const kernel = await createDefaultKernel({}, { cwd: fixture({}), reporters: [] });
  const outcome = await kernel.run(createRunPlan({ cases: CASES, agent: 'echo', thresholds: { pass_rate: 0.9 } }));
  assert.equal(outcome.summary.verdict?.can_ship, false);
  assert.deepEqual(outcome.summary.thresholds, { pass_rate: 0.9 });
});

test('a config plugin named agentest:verdict replaces the default verdict', async () => {
  const lenient: AgentestPlugin = {
    name: 'agentest:verdict',
    apply: ({ hooks }) =>
      hooks.summary.tap('agentest:verdict', (summary) => ({
        ...summary,
        verdict: { can_ship: summary.passed > 0, issues: [] },
      })),
  };
  const kernel = await createDefaultKernel({ plugins: [lenient] }, { cwd: fixture({}), reporters: [] });
  // `pass_rat` would be refused as a typo by the default verdict, before any case ran.
  const outcome = await kernel.run(createRunPlan({ cases: CASES, agent: 'echo', thresholds: { pass_rat: 0.9 } }));
  assert.deepEqual(outcome.summary.verdict, { can_ship: true, issues: [] });
  assert.equal(outcome.summary.thresholds, undefined);
});
