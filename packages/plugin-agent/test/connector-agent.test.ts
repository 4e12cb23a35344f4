import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startFakeLlm, type FakeLlm } from '@agentest/fake-llm';
import type { AgentestError } from '@agentest/kernel';
import type { ConnectorConfig } from '@agentest/connectors';
import agents from '../src/index.js';
import { run, testCase } from './helpers.js';

async function withFake(body: (llm: FakeLlm) => Promise<void>): Promise<void> {
  const llm = await startFakeLlm({ rules: [{ match: 'refund', reply: 'Refund issued.' }], echo: true });
  try {
    await body(llm);
  } finally {
    await llm.close();
  }
}

const openai = (llm: FakeLlm, model: string): ConnectorConfig => ({
  type: 'openai',
  options: { host: llm.url, model, backoff_ms: 1 },
});

test('a connector agent sends its prompts, options and the case messages to the connector', () =>
  withFake(async (llm) => {
    const options = {
      agents: {
        'gpt.raw': {
          connector: 'fake',
          prompts: [{ role: 'system', content: 'Be brief.' }],
          options: { temperature: 0 },
        },
      },
      connectors: { fake: openai(llm, 'fake-model') },
    };
    const cases = [
      testCase('refund please', { assert: [{ type: 'contains', value: 'Refund' }] }),
      testCase('hello there'),
    ];
    const { outcome, byId } = await run([agents(options)], cases, { agent: { id: 'gpt.raw' } });
    assert.equal(outcome.summary.agent_id, 'gpt.raw');
    assert.equal(outcome.summary.connector, 'fake');
    assert.equal(byId('refund please').status, 'passed');
    assert.equal(byId('refund please').output, 'Refund issued.');
    assert.equal(byId('hello there').output, 'hello there');
    const body = llm.requests[0]!.body as {
      model: string;
      temperature: number;
      messages: { role: string; content: string }[];
    };
    assert.equal(body.model, 'fake-model');
    assert.equal(body.temperature, 0);
    assert.deepEqual(
      body.messages.map((m) => [m.role, m.content]),
      [
        ['system', 'Be brief.'],
        ['user', 'refund please'],
      ],
    );
  }));

test('-c swaps the connector of a connector agent; an unknown -c is CONNECTOR_NOT_FOUND', () =>
  withFake(async (llm) => {
    const options = {
      agents: { bot: { connector: 'small' } },
      connectors: { small: openai(llm, 'small-model'), large: openai(llm, 'large-model') },
    };
    const { outcome } = await run([agents(options)], [testCase('hi')], { agent: { id: 'bot', connector: 'large' } });
    assert.equal(outcome.summary.passed, 1);
    assert.equal(outcome.summary.connector, 'large');
    assert.equal(llm.requests.at(-1)!.model, 'large-model');
    await assert.rejects(
      run([agents(options)], [testCase('hi')], { agent: { id: 'bot', connector: 'huge' } }),
      (e: AgentestError) =>
        e.code === 'CONNECTOR_NOT_FOUND' &&
        /-c huge: no connector "huge" in the config's connectors \(known: small, large\)/.test(e.message),
    );
  }));

test('a connector with a missing secret fails only when its agent is used', async () => {
  delete process.env.AGENTEST_TEST_UNSET_KEY;
  const options = {
    agents: { paid: { connector: 'vendor' } },
    connectors: { vendor: { type: 'openai', options: { model: 'gpt-4o', key: '$ENV.AGENTEST_TEST_UNSET_KEY' } } },
  };
  const echo = await run([agents(options)], [testCase('hi')], { agent: { id: 'echo' } });
  assert.equal(echo.outcome.summary.passed, 1);
  await assert.rejects(
    run([agents(options)], [testCase('hi')], { agent: { id: 'paid' } }),
    (e: AgentestError) => e.code === 'SECRET_MISSING' && /AGENTEST_TEST_UNSET_KEY/.test(e.message),
  );
});
