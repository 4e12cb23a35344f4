import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHook } from 'node:async_hooks';
import { createKernel, type AgentestPlugin, type PlanContext, type RunEvent, type TestContext } from '../src/index.js';
import { inlineCases } from '@agentest/test-utils';
import { collector, plan, testCase } from './helpers.js';

/** An executor, an assertion type and a reporter that all answer at once. */
function synchronous(counting: { promises: number }, whole = false): AgentestPlugin {
  const hook = createHook({ init: (_id, type) => void (type === 'PROMISE' && counting.promises++) });
  if (whole) hook.enable();
  return {
    name: 'test:sync',
    apply({ hooks }) {
      hooks.execute.for('agent').tap('test:sync', (c, ctx) => {
        if (c.id === 'throws') throw new Error('executor broke');
        return { run: ctx.run, status: 'passed', duration_ms: 1, assertions: [], metrics: {}, output: c.input };
      });
      hooks.assert.for('same').tap('test:sync', (a, input) => ({ pass: input.output === a.value }));
      // Only the run itself is counted: from its start event to its summary.
      hooks.report.tap('test:sync', (event: RunEvent) => {
        if (event.type === 'start') hook.enable();
        if (event.type === 'summary') hook.disable();
      });
      hooks.teardown.tap('test:sync', () => void hook.disable());
    },
  };
}

/** The promises a run of `n` cases makes; from its start event to its summary, or `whole` from setup to teardown. */
async function promisesPerCase(n: number, whole = false): Promise<number> {
  const counting = { promises: 0 };
  const cases = Array.from({ length: n }, (_, i) => testCase(`c${i}`, { assert: [{ type: 'same', value: `c${i}` }] }));
  const outcome = await createKernel({
    plugins: [inlineCases(cases, { needsAgent: false }), synchronous(counting, whole)],
  }).run(plan({ parallel: 4 }));
  assert.equal(outcome.summary.passed, n);
  return counting.promises;
}

test('a case whose executor, assertions and reporters answer at once costs the run no promise of its own', async () => {
  // The difference between two sizes leaves out what every run costs once. The suite is a plain array:
  // the pool pulls from it without a promise (an asynchronous iterator cost two), and the case's
  // steps add none (they cost 8).
  const perCase = ((await promisesPerCase(200)) - (await promisesPerCase(100))) / 100;
  assert.equal(perCase, 0, `${perCase} promises per case`);
});

test('checking a suite of plain cases before the run costs no promise per case either', async () => {
  // The check reads the suite once before the start event (every kind has an executor, …): a plain
  // iterable is read in a plain loop, where `for await` made three promises per case.
  const perCase = ((await promisesPerCase(200, true)) - (await promisesPerCase(100, true))) / 100;
  assert.ok(perCase < 1, `${perCase} promises per case`);
});

test('on the synchronous path a throwing executor is its case error, and a reporter that waits is waited for', async () => {
  const counting = { promises: 0 };
  const order: string[] = [];
  const slow: AgentestPlugin = {
    name: 'test:slow',
    apply({ hooks }) {
      hooks.report.tapPromise('test:slow', async (event: RunEvent) => {
        if (event.type !== 'case_start') return;
        await new Promise((resolve) => setTimeout(resolve, 5));
        order.push(`started ${event.id}`);
      });
      hooks.assert
        .for('probe')
        .tap('test:slow', (_a, input) => (order.push(`judged ${input.testCase.id}`), { pass: true }));
    },
  };
  const cases = [testCase('ok', { assert: [{ type: 'probe' }] }), testCase('throws'), testCase('after')];
  const { plugin, events } = collector();
  const outcome = await createKernel({
    plugins: [inlineCases(cases, { needsAgent: false }), synchronous(counting), slow, plugin],
  }).run(plan());
  assert.deepEqual(order.slice(0, 2), ['started ok', 'judged ok'], 'the executor ran after case_start was heard');
  const results = events.filter((e) => e.type === 'result');
  assert.deepEqual(
    results.map((r) => [r.id, r.status]),
    [
      ['ok', 'passed'],
      ['throws', 'error'],
      ['after', 'passed'],
    ],
  );
  assert.match(String(results[1]!.error), /executor broke/);
  assert.equal(outcome.summary.errors, 1);
});

test("a run's context is made only when its executor reads it, once, with the chat id of its case and run", async () => {
  const made: string[] = [];
  const context: PlanContext = {
    environment: { user_id: '', team_id: '', locale: '', client_type: '', client_ip: '', referer: '', accept: '' },
    forAgent: () => (_c, chatId) => (made.push(chatId), { chat_id: chatId }) as TestContext,
  };
  const seen: string[] = [];
  const reading: AgentestPlugin = {
    name: 'test:reading',
    apply({ hooks }) {
      hooks.execute.for('agent').tap('test:reading', (c, ctx) => {
        if (c.id === 'reads') seen.push(ctx.context.chat_id, String(ctx.context === ctx.context));
        return { run: ctx.run, status: 'passed', duration_ms: 1, assertions: [], metrics: {} };
      });
    },
  };
  const cases = [testCase('quiet'), testCase('reads')];
  await createKernel({ plugins: [inlineCases(cases, { needsAgent: false }), reading] }).run(plan({ context }));
  assert.deepEqual(made, ['test-reads']);
  assert.deepEqual(seen, ['test-reads', 'true']);
  made.length = 0;
  await createKernel({ plugins: [inlineCases([testCase('reads')], { needsAgent: false }), reading] }).run(
    plan({ context, runs: 2 }),
  );
  assert.deepEqual(made, ['test-reads-run1', 'test-reads-run2']);
});
