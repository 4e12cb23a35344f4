import assert from 'node:assert/strict';
import { test } from 'node:test';
import { validateAgentAssertion } from '../src/index.js';
import { runJudged } from './harness.js';

const agent = (extra: Record<string, unknown>) => ({ type: 'agent', use: 'agents:judge', value: 'ok', ...extra });

test('a well-written agent assertion has no problem', () => {
  assert.equal(
    validateAgentAssertion(agent({ samples: 3, options: { connector: 'gpt-4o', metadata: {}, timeout: '30s' } })),
    undefined,
  );
  assert.equal(validateAgentAssertion(agent({ use: 'connector:openai.gpt-4o' })), undefined);
});

test('each way of writing it wrongly is named, with what to write', () => {
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ use: undefined }, /needs "use": "agents:<assistant-or-agent-id>" or "connector:<connector-id>"/],
    [{ use: 'tests.validator' }, /must start with "agents:" .* or "connector:"/],
    [{ use: 'agents:' }, /names no id after "agents:"/],
    [{ samples: 0 }, /"samples" must be a whole number from 1 to 25, got 0/],
    [{ samples: 2.5 }, /"samples" must be a whole number/],
    [{ options: [] }, /"options" must be an object/],
    [{ options: { connecter: 'x' } }, /"options.connecter" is not a judge option/],
    [{ options: { metadata: 'x' } }, /"options.metadata" must be an object/],
    [{ options: { temperature: 3 } }, /"options.temperature" must be a number from 0 to 2/],
    [{ options: { seed: 1.5 } }, /"options.seed" must be a whole number/],
    [{ options: { timeout: '30' } }, /"options.timeout" must be a duration/],
    [{ sample: 3 }, /"sample" is not a field of it/],
  ];
  for (const [extra, problem] of cases)
    assert.match(validateAgentAssertion(agent(extra)) ?? '', problem, JSON.stringify(extra));
});

test('the kernel refuses a malformed agent assertion before any agent is called (exit 2)', async () => {
  await assert.rejects(
    runJudged([{ id: 'bad', output: 'x', assert: [agent({ samples: -1 })] }], {}),
    (error: Error & { code?: string }) =>
      error.code === 'ASSERTION_INVALID' &&
      /inline\.jsonl:1: assert\[0\] \(agent\): invalid agent assertion: "samples"/.test(error.message),
  );
});
