import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AgentestError } from '@agentest/kernel';
import agents, { defineAdapter, defineAgent } from '../src/index.js';
import { run, testCase } from './helpers.js';

async function rejection(options: Parameters<typeof agents>[0]): Promise<AgentestError> {
  try {
    await run([agents(options)], [testCase('a')], { agent: { id: 'echo' } });
  } catch (error) {
    return error as AgentestError;
  }
  assert.fail('the run should have been rejected');
}

test('config agents are validated when the run starts, naming agents.<key> and what is wrong', async () => {
  const cases: [Parameters<typeof agents>[0], string, RegExp][] = [
    [
      { agents: { bot: 'gpt-4o' as never } },
      'CONFIG_INVALID',
      /^agents\.bot: expected an adapter \{ call\(input\).*got a string$/,
    ],
    [
      { agents: { bot: { name: 'x' } as never } },
      'CONFIG_INVALID',
      /^agents\.bot: expected an adapter .* got an object with name$/,
    ],
    [
      { agents: { bot: { call: () => 1, evaluate: 'nope' } as never } },
      'CONFIG_INVALID',
      /^agents\.bot\.evaluate: must be a function \(got a string\) \(an adapter is \{ call\(input\), evaluate\?/,
    ],
    [
      { agents: { bot: { run: 5 } as never } },
      'CONFIG_INVALID',
      /^agents\.bot\.run: must be a function \(got a number\)/,
    ],
    [
      { agents: { bot: { connector: 'gpt', prompt: [] } as never }, connectors: { gpt: { type: 'openai' } } },
      'CONFIG_INVALID',
      /^agents\.bot: Unrecognized key: "prompt"/,
    ],
    [
      {
        agents: { bot: { connector: 'gpt', prompts: [{ role: 'system', content: 3 }] } as never },
        connectors: { gpt: { type: 'openai' } },
      },
      'CONFIG_INVALID',
      /^agents\.bot\.prompts\.0\.content: must be a string/,
    ],
    [
      { agents: { bot: { connector: 'gtp' } }, connectors: { gpt: { type: 'openai' } } },
      'CONFIG_INVALID',
      /^agents\.bot\.connector: "gtp" is not defined in connectors \(known: gpt\)/,
    ],
    [{ connectors: { gpt: { model: 'x' } as never } }, 'CONNECTOR_INVALID', /^connectors\.gpt\.type: /],
    [{ agent: {} } as never, 'PLUGIN_INVALID', /^agentest:agent options: Unrecognized key: "agent"/],
  ];
  for (const [options, code, message] of cases) {
    const error = await rejection(options);
    assert.equal(error.code, code, error.message);
    assert.match(error.message, message);
  }
});

test("defineAdapter throws a TypeError for an object that is no adapter, as agentest-kit's README says", () => {
  for (const bad of [{}, { call: 1 }, { call() {}, evaluate: 'no' }, null]) {
    assert.throws(
      () => defineAdapter(bad as never),
      (e: unknown) =>
        e instanceof TypeError && e instanceof AgentestError && e.code === 'CONFIG_INVALID' && e.exitCode === 2,
    );
  }
});

test('defineAdapter and defineAgent return the object, and reject bad members with CONFIG_INVALID', () => {
  const adapter = { call: async () => ({}) };
  assert.equal(defineAdapter(adapter), adapter);
  const agent = { run: async () => ({ content: '', text: '' }) };
  assert.equal(defineAgent(agent), agent);
  assert.throws(
    () => defineAdapter({ evaluate: () => ({}) } as never),
    (e: AgentestError) =>
      e.code === 'CONFIG_INVALID' &&
      /^defineAdapter\(\): call: must be a function \(got undefined\); an adapter is \{ call\(input\), evaluate\?/.test(
        e.message,
      ),
  );
  assert.throws(
    () => defineAdapter({ call() {}, evaluate: 1 } as never),
    /evaluate: must be a function \(got a number\)/,
  );
  assert.throws(
    () => defineAdapter(null as never),
    (e: AgentestError) => e.code === 'CONFIG_INVALID' && /expects an object, got null/.test(e.message),
  );
  assert.throws(
    () => defineAgent({} as never),
    (e: AgentestError) => e.code === 'CONFIG_INVALID' && /run: must be a function/.test(e.message),
  );
});

test('a config key shadows a built-in, and a plain object works like a defined one', async () => {
  const plain = { call: (input: { query: string }) => ({ said: input.query.toUpperCase() }) };
  const { results } = await run([agents({ agents: { echo: plain } })], [testCase('hi')], { agent: { id: 'echo' } });
  assert.deepEqual(results[0]!.output, { said: 'HI' });
});
