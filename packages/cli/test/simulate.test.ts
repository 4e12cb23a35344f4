import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fixture } from './helpers.js';
import { agentestInProcess as agentest } from './in-process.js';

const CONFIG = `
export default {
  connectors: {
    shop: { type: 'mock', options: { replies: [
      { match: 'coffee', reply: 'Hello! What would you like to order?' },
      { match: 'latte', reply: 'What size would you like?' },
      { match: 'medium', reply: 'Please confirm: one medium latte?' },
    ], default: 'Sorry?' } },
  },
  agents: {
    shop: { connector: 'shop' },
    sim: {
      async run(messages) {
        const brief = JSON.parse(messages[0].content);
        const says = { 1: 'I would like a coffee', 2: 'A latte', 3: 'Medium please' }[brief.turn_number];
        const text = brief.goal === 'leave' ? '{"goal_achieved": true, "message": "bye"}' : JSON.stringify({ message: says ?? 'hm' });
        return { content: text, text };
      },
    },
  },
};`;

const TESTS = `import { test, expect } from '@agentest/test';

test('orders until the shop asks to confirm', async (ctx) => {
  const chat = await ctx.simulate({ persona: 'a customer', goal: 'order a latte', until: (reply) => /confirm/i.test(reply) });
  expect(chat.ended).toBe('until');
  expect(chat.last).toContain('confirm');
  expect(chat.turns.length).toBe(3);
  expect(chat.transcript[0]).toEqual({ role: 'user', content: 'I would like a coffee' });
});

test('stops at maxTurns', async (ctx) => {
  const chat = await ctx.simulate({ input: 'coffee?', maxTurns: 2, until: (reply) => reply.includes('refund') });
  expect(chat.ended).toBe('max_turns');
  expect(chat.turns.map((t) => t.user)).toEqual(['coffee?', 'A latte']);
});

test('the simulated user leaves', async (ctx) => {
  const chat = await ctx.simulate({ goal: 'leave', input: 'coffee' });
  expect(chat.ended).toBe('goal_achieved');
});

test('a failed expectation on the transcript fails the test', async (ctx) => {
  const chat = await ctx.simulate({ maxTurns: 1 });
  expect(chat.last).toContain('refund');
});
`;

test('ctx.simulate in a test() file plays a simulated user until `until`, maxTurns or the user is done', async () => {
  const dir = fixture({ 'agentest.config.mjs': CONFIG, 'suite/tests/chat.test.ts': TESTS });
  const run = await agentest(['test', '-i', 'suite', '-n', 'shop', '--simulator', 'sim', '-o', 'out.json'], {
    cwd: dir,
  });
  const report = JSON.parse(readFileSync(join(dir, 'out.json'), 'utf8'));
  const statuses = Object.fromEntries(
    report.results.map((r: { name?: string; id: string; status: string }) => [r.name ?? r.id, r.status]),
  );
  assert.deepEqual(
    statuses,
    {
      'orders until the shop asks to confirm': 'passed',
      'stops at maxTurns': 'passed',
      'the simulated user leaves': 'passed',
      'a failed expectation on the transcript fails the test': 'failed',
    },
    run.stdout + run.stderr,
  );
  assert.equal(run.code, 1);
  const first = report.results.find((r: { name?: string }) => r.name === 'orders until the shop asks to confirm');
  assert.equal(first.details.dynamic.turns.length, 3, 'the conversation is on the run, for the reports');
});

test('ctx.simulate without a simulator is an error on the test that says how to name one', async () => {
  const dir = fixture({
    'agentest.config.mjs': CONFIG,
    'suite/tests/chat.test.ts':
      "import { test } from '@agentest/test';\ntest('t', async (ctx) => { await ctx.simulate({ goal: 'x' }); });\n",
  });
  const run = await agentest(['test', '-i', 'suite', '-n', 'shop', '-o', 'out.json'], { cwd: dir });
  assert.equal(run.code, 1);
  const [result] = JSON.parse(readFileSync(join(dir, 'out.json'), 'utf8')).results;
  assert.equal(result.status, 'error');
  assert.match(
    result.error,
    /ctx\.simulate needs a simulator: pass \{ simulator: '<agent id>' \} or --simulator <agent id>/,
  );
});
