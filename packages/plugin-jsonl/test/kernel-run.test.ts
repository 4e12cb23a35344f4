import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createKernel, type AgentestPlugin, type CaseResult, type RunPlan } from '@agentest/kernel';
import jsonlPlugin from '../src/index.js';
import { FIXTURES, scratch } from './helpers.js';

/** An agent that echoes the last message's content, and an equals/contains pair of assertions. */
function echoAndAssert(results: CaseResult[]): AgentestPlugin {
  return {
    name: 'test:echo',
    apply({ hooks }) {
      hooks.resolve.tapPromise('test:echo', async (ref) => ({
        id: 'echo',
        path: ref.path,
        run: async (messages) => ({ content: messages.at(-1)!.content, text: '' }),
      }));
      hooks.execute.for('agent').tapPromise('test:echo', async (c, ctx) => {
        const reply = await ctx.agent!.run(c.messages, ctx.context, ctx.signal);
        return { run: ctx.run, status: 'passed', duration_ms: 0, output: reply.content, assertions: [], metrics: {} };
      });
      hooks.assert
        .for('contains')
        .tap('test:echo', (a, input) => ({ pass: String(input.output).includes(String(a.value)) }));
      hooks.assert
        .for('equals')
        .tap('test:echo', (a, input) => ({ pass: JSON.stringify(a.value) === JSON.stringify(input.output) }));
      hooks.report.tap('test:echo', (event) => void (event.type === 'result' && results.push(event)));
    },
  };
}

function plan(input: string, cwd: string): RunPlan {
  return { input: { input, cwd }, runs: 1, parallel: 2, failFast: false, env: {}, verbose: false };
}

test('a JSONL file runs end to end: skipped cases, expected → equals, the agent found from the file', async () => {
  const dir = scratch({
    'inputs.jsonl': [
      '{"id": "echo", "input": "hello", "expected": "hello"}',
      '{"id": "mismatch", "input": "hello", "expected": "bye"}',
      '// a comment',
      '{"id": "skipped", "input": "x", "skip": true}',
      '{"id": "contains", "input": "a needle here", "assert": {"type": "contains", "value": "needle"}}',
    ].join('\n'),
  });
  const results: CaseResult[] = [];
  const outcome = await createKernel({ plugins: [jsonlPlugin(), echoAndAssert(results)] }).run(
    plan('inputs.jsonl', dir),
  );
  const status = Object.fromEntries(results.map((r) => [r.id, r.status]));
  assert.deepEqual(status, { echo: 'passed', mismatch: 'failed', skipped: 'skipped', contains: 'passed' });
  assert.equal(outcome.summary.agent_path, `${dir}/inputs.jsonl`);
  assert.deepEqual(results.find((r) => r.id === 'contains')!.source, { file: 'inputs.jsonl', line: 5 });
});

test('a bad line stops the run before any agent call, with exit-2 error', async () => {
  const dir = scratch({ 'inputs.jsonl': '{"id": "a", "input": "x"}\n{"id": "a", "input": "y"}\n' });
  const results: CaseResult[] = [];
  await assert.rejects(
    createKernel({ plugins: [jsonlPlugin(), echoAndAssert(results)] }).run(plan('inputs.jsonl', dir)),
    (error: Error & { code?: string; exitCode?: number }) => {
      assert.equal(error.code, 'DUPLICATE_CASE_ID');
      assert.equal(error.exitCode, 2);
      return true;
    },
  );
  assert.equal(results.length, 0);
});

test('a direct message runs as case T001', async () => {
  const results: CaseResult[] = [];
  const outcome = await createKernel({ plugins: [jsonlPlugin(), echoAndAssert(results)] }).run(
    plan('Hello there', FIXTURES),
  );
  assert.equal(outcome.summary.total, 1);
  assert.equal(results[0]!.id, 'T001');
  assert.equal(results[0]!.output, 'Hello there');
});
