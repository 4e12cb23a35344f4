/**
 * The sandbox's start-up is no case's time: a run that will use it starts it before its first case
 * and waits for it at the run's `start` event, so the first cases' durations are honest.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AgentestPlugin, TestCase } from '@agentest/kernel';
import { acquireScriptPool } from '../src/index.js';
import { APP, plan, runKernel } from './helpers.js';

/**
 * Holds the shared pool the plugin will use (the options of `runKernel`) and records, in one list
 * with the run's events, when its `warm` is called and when it is done.
 */
function watchWarmUp() {
  const order: string[] = [];
  const lease = acquireScriptPool({ maxThreads: 2, memoryLimitMb: 64 });
  const warm = lease.pool.warm.bind(lease.pool);
  lease.pool.warm = async (files) => {
    order.push('warm');
    await warm(files);
    order.push('ready');
  };
  const events: AgentestPlugin = {
    name: 'test:order',
    apply: ({ hooks }) => hooks.report.tap('test:order', (event) => void order.push(event.type)),
  };
  return { order, events, release: () => lease.release() };
}

function inline(cases: TestCase[]): AgentestPlugin {
  return {
    name: 'test:inline',
    apply({ hooks }) {
      hooks.load.tapPromise('test:inline', async (input) =>
        input.input === 'inline' ? { name: 'inline', needsAgent: false, cases: () => cases } : undefined,
      );
      hooks.execute.for('agent').tapPromise('test:inline', async (c, ctx) => ({
        run: ctx.run,
        status: 'passed',
        duration_ms: 1,
        output: `echo ${c.input}`,
        assertions: [],
        metrics: {},
      }));
    },
  };
}

describe('the sandbox starts before the first case', () => {
  it('for a suite with script assertions: the start event waits until it is ready', async () => {
    const { order, events, release } = watchWarmUp();
    try {
      const cases: TestCase[] = [
        {
          id: 'a',
          kind: 'agent',
          input: 'hello',
          messages: [],
          source: { file: 'assistants/hooks/tests/inputs.jsonl', line: 1 },
          assert: [{ type: 'script', script: 'scripts.test.ValidateOutput', value: 'hello' }],
        },
      ];
      const { results } = await runKernel(plan('inline', APP), {}, [inline(cases), events]);
      assert.equal(results[0]!.status, 'passed', results[0]!.error);
      assert.deepEqual(order.slice(0, 4), ['warm', 'ready', 'start', 'case_start']);
    } finally {
      await release();
    }
  });

  it('for a script test suite', async () => {
    const { order, events, release } = watchWarmUp();
    try {
      const { results } = await runKernel(plan('scripts.life.life', APP, { filter: /^TestFirst$/ }), {}, [events]);
      assert.equal(results[0]!.status, 'passed', results[0]!.error);
      assert.deepEqual(order.slice(0, 4), ['warm', 'ready', 'start', 'case_start']);
    } finally {
      await release();
    }
  });

  it('a suite that never uses the sandbox does not start it', async () => {
    const { order, events, release } = watchWarmUp();
    try {
      const cases: TestCase[] = [
        { id: 'a', kind: 'agent', input: 'x', messages: [], source: { file: 'inline.jsonl', line: 1 } },
      ];
      await runKernel(plan('inline', APP), {}, [inline(cases), events]);
      assert.ok(!order.includes('warm'), order.join(', '));
    } finally {
      await release();
    }
  });
});
