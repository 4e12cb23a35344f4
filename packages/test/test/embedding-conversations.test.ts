// The conversation features through the programmatic API, as docs/dynamic.md "From code" shows them: cases
// held in memory with a judged assertion and a dynamic conversation whose simulated user is the plan's
// `simulator` (--simulator), and cases an `agents:` generator writes, listed without running them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Message } from '@agentest/kernel';
import { createDefaultKernel, createRunPlan, defineAgent, defineConfig } from '../src/index.js';

const lastText = (messages: readonly Message[]) => String(messages.at(-1)?.content ?? '');

const config = defineConfig({
  reporters: [],
  agents: {
    // The agent under test: asks for the size, then confirms.
    shop: defineAgent({
      run: async (messages) => ({
        content: /medium/i.test(lastText(messages)) ? 'Confirmed: a medium latte.' : 'What size would you like?',
        text: '',
      }),
    }),
    // The simulated user: answers the size on its second turn.
    shopper: defineAgent({
      run: async (messages) => {
        const brief = JSON.parse(lastText(messages)) as { turn_number: number };
        return { content: JSON.stringify({ message: brief.turn_number === 2 ? 'Medium' : 'A latte' }), text: '' };
      },
    }),
    // A judge: passes any output that asks a question.
    judge: defineAgent({
      run: async (messages) => {
        const payload = JSON.parse(lastText(messages)) as { output: string };
        return { content: JSON.stringify({ passed: payload.output.endsWith('?'), reason: 'asks' }), text: '' };
      },
    }),
    // A generator: the cases it is asked for.
    writer: defineAgent({
      run: async (messages) => {
        const { count } = JSON.parse(lastText(messages)) as { count: number };
        const cases = Array.from({ length: count }, (_, i) => ({ id: `G${i + 1}`, input: `order ${i + 1}` }));
        return { content: JSON.stringify(cases), text: '' };
      },
    }),
  },
});

test('in-memory cases: a judged assertion and a dynamic case whose simulated user is the plan’s simulator', async () => {
  const kernel = await createDefaultKernel(config);
  const plan = createRunPlan({
    agent: 'shop',
    simulator: 'shopper',
    cases: [
      { id: 'asks', input: 'A latte', assert: { type: 'agent', use: 'agents:judge', value: 'asks', samples: 3 } },
      {
        id: 'order',
        input: 'Hi, a coffee please',
        checkpoints: [{ id: 'confirm', assert: { type: 'contains', value: 'Confirmed' } }],
        max_turns: 4,
      },
    ],
  });
  const { summary } = await kernel.run(plan);
  assert.deepEqual([summary.total, summary.passed], [2, 2]);
});

test('an agents: input generates the cases; kernel.list gives them without running them (--dry-run)', async () => {
  const kernel = await createDefaultKernel(config);
  const cases = await kernel.list(createRunPlan({ input: 'agents:writer?count=3', agent: 'shop' }));
  assert.deepEqual(
    cases.map((c) => [c.id, c.input]),
    [
      ['G1', 'order 1'],
      ['G2', 'order 2'],
      ['G3', 'order 3'],
    ],
  );
});
