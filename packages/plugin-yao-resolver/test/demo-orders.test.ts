import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { createKernel, type AgentestPlugin, type Execution, type RunOutcome } from '@agentest/kernel';
import yaoResolver from '../src/index.js';
import { plan } from './helpers.js';

const APP = fileURLToPath(new URL('../../../examples/app', import.meta.url));
const SUITE = 'assistants/orders/tests/inputs.jsonl';

/**
 * The orders suite as `agentest test -i assistants/orders/tests/inputs.jsonl` runs it from the app:
 * the JSONL loader, the agent executor, the built-in assertions and this resolver, which finds the
 * assistant from the input's path. Its own MCP tools run, and the `mock.orders` connector answers
 * each tool result, so the automatic tool loop ends offline. Three runs of each case in parallel
 * show that the scripted answers do not depend on the interleaving.
 */
async function runOrdersSuite(): Promise<{ outcome: RunOutcome; runs: Map<string, Execution[]> }> {
  const { default: jsonl } = await import('@agentest/plugin-jsonl');
  const { default: agents } = await import('@agentest/plugin-agent');
  const { default: assertions } = await import('@agentest/plugin-assert');
  const runs = new Map<string, Execution[]>();
  const collect: AgentestPlugin = {
    name: 'test:collect',
    apply: ({ hooks }) =>
      hooks.report.tap('test:collect', (event) => {
        if (event.type === 'run_result') runs.set(event.id, [...(runs.get(event.id) ?? []), event.execution]);
      }),
  };
  const kernel = createKernel({ plugins: [jsonl(), agents(), assertions(), yaoResolver({ env: {} }), collect] });
  const outcome = await kernel.run({ ...plan(APP), input: { input: SUITE, cwd: APP }, runs: 3, parallel: 4 });
  return { outcome, runs };
}

describe('examples/app orders assistant (MCP tools, automatic tool loop, mock connector)', () => {
  it('passes every case of its suite, on every run, with the tool results on the runs', async () => {
    const { outcome, runs } = await runOrdersSuite();
    assert.equal(outcome.summary.passed, outcome.summary.total, JSON.stringify(outcome.summary));
    assert.deepEqual(outcome.errors, []);
    assert.equal(outcome.summary.agent_id, 'orders');
    assert.deepEqual([...runs.keys()].sort(), ['O01', 'O02', 'O03', 'O04', 'O05', 'O06']);
    for (const [id, executions] of runs) {
      assert.equal(executions.length, 3);
      for (const run of executions)
        assert.equal(run.status, 'passed', `${id} run ${run.run}: ${run.error ?? JSON.stringify(run.assertions)}`);
    }

    const [shipped] = runs.get('O01')!;
    assert.equal(shipped!.output, 'Order A1001 has shipped with DHL and should arrive on 2026-12-03.');
    assert.deepEqual(
      shipped!.tool_calls?.map(({ id, ...call }) => call),
      [
        {
          server: 'agents.orders.shop',
          name: 'agents_orders_shop__lookup_order',
          arguments: { order_id: 'A1001' },
          result: {
            found: true,
            id: 'A1001',
            status: 'shipped',
            items: [{ sku: 'mug', qty: 2 }],
            total: 24,
            carrier: 'DHL',
            eta: '2026-12-03',
          },
        },
      ],
    );
    assert.equal(shipped!.trace?.llm_calls, 2, 'the tool call, then the answer from its result');

    // Two tools in a row: the lookup, then the cancellation with the id the lookup returned.
    const [cancelled] = runs.get('O05')!;
    assert.deepEqual(
      cancelled!.tool_calls?.map((call) => [call.name, call.result]),
      [
        [
          'agents_orders_shop__lookup_order',
          { found: true, id: 'A1002', status: 'processing', items: [{ sku: 'teapot', qty: 1 }], total: 39.5 },
        ],
        ['agents_orders_shop__cancel_order', { cancelled: true, id: 'A1002', status: 'cancelled' }],
      ],
    );
    assert.equal(cancelled!.output, 'Done: order A1002 is cancelled.');
    assert.equal(cancelled!.trace?.llm_calls, 3);

    const [unknown] = runs.get('O04')!;
    assert.deepEqual(unknown!.tool_calls?.[0]?.result, { found: false, id: 'A9999' });

    // Not about an order: one LLM call, no tools.
    const [hours] = runs.get('O06')!;
    assert.equal(hours!.tool_calls?.length ?? 0, 0);
    assert.equal(hours!.output, 'We are open Monday to Friday, 9:00 to 17:00.');
  });
});
