import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AgentestPlugin } from '@agentest/kernel';
import {
  agentExecutor,
  containsAssertion,
  echoAgent,
  equalsAssertion,
  recorder,
  runKernel,
} from '@agentest/test-utils';
import jsonlPlugin from '../src/index.js';
import { FIXTURES, scratch } from './helpers.js';

/** This plugin with the shared harness's echo agent, agent executor, and `contains` and `equals`. */
function run(input: string, cwd: string, more: AgentestPlugin[] = []) {
  const plugins = [jsonlPlugin(), echoAgent(), agentExecutor(), containsAssertion(), equalsAssertion(), ...more];
  return runKernel(plugins, { input: { input, cwd }, parallel: 2 });
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
  const { outcome, results } = await run('inputs.jsonl', dir);
  const status = Object.fromEntries(results.map((r) => [r.id, r.status]));
  assert.deepEqual(status, { echo: 'passed', mismatch: 'failed', skipped: 'skipped', contains: 'passed' });
  assert.equal(outcome.summary.agent_path, `${dir}/inputs.jsonl`);
  assert.deepEqual(results.find((r) => r.id === 'contains')!.source, { file: 'inputs.jsonl', line: 5 });
});

test('a bad line stops the run before any agent call, with exit-2 error', async () => {
  const dir = scratch({ 'inputs.jsonl': '{"id": "a", "input": "x"}\n{"id": "a", "input": "y"}\n' });
  const seen = recorder();
  await assert.rejects(
    run('inputs.jsonl', dir, [seen.plugin]),
    (error: Error & { code?: string; exitCode?: number }) => {
      assert.equal(error.code, 'DUPLICATE_CASE_ID');
      assert.equal(error.exitCode, 2);
      return true;
    },
  );
  assert.equal(seen.results.length, 0);
});

test('a direct message runs as case T001', async () => {
  const { outcome, results } = await run('Hello there', FIXTURES);
  assert.equal(outcome.summary.total, 1);
  assert.equal(results[0]!.id, 'T001');
  assert.equal(results[0]!.output, 'Hello there');
});
