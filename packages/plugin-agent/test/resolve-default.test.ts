import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createKernel, type AgentestPlugin, type RunPlan } from '@agentest/kernel';
import agents from '../src/index.js';

const plan: RunPlan = {
  input: { input: 'inline', cwd: process.cwd() },
  runs: 1,
  parallel: 1,
  failFast: false,
  env: {},
  verbose: false,
};
const loader: AgentestPlugin = {
  name: 'test:loader',
  apply: ({ hooks }) =>
    hooks.load.tap('test:loader', () => ({
      name: 'inline',
      needsAgent: true,
      cases: () => [
        { id: 'a', kind: 'agent', input: 'hi', messages: [{ role: 'user', content: 'hi' }], source: { file: 'x' } },
      ],
    })),
};
const only = { run: async () => ({ content: 'from the only agent', text: 'from the only agent' }) };

test('without -n, a config with exactly one agent uses it', async () => {
  const outcome = await createKernel({ plugins: [loader, agents({ agents: { bot: only } })] }).run(plan);
  assert.equal(outcome.summary.agent_id, 'bot');
  assert.equal(outcome.summary.passed, 1);
});

test('without -n, two config agents are ambiguous and nothing is picked', async () => {
  const kernel = createKernel({ plugins: [loader, agents({ agents: { a: only, b: only } })] });
  await assert.rejects(kernel.run(plan), (e: { code: string }) => e.code === 'AGENT_NOT_FOUND');
});
