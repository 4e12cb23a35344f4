import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createKernel } from '@agentest/kernel';
import { agents } from '@agentest/plugin-agent';
import assertions from '@agentest/plugin-assert';
import * as api from '../src/index.js';
import * as kit from '../src/kit.js';

const { createCase, createDefaultKernel, createRunPlan, defineAgent, defineAssertion, defineLoader, defineResolver } =
  api;

const shout = defineAgent({
  run: async (messages) => ({ content: String(messages.at(-1)?.content).toUpperCase(), text: '' }),
});

test('@agentest/test exports one helper per concept and one way to build a kernel; the kit API is on /kit', () => {
  assert.deepEqual(Object.keys(api).sort(), [
    'AgentestError',
    'AssertionError',
    'ERROR_CATALOGUE',
    'createCase',
    'createDefaultKernel',
    'createRunPlan',
    'defineAdapter',
    'defineAgent',
    'defineAssertion',
    'defineConfig',
    'defineLoader',
    'definePlugin',
    'defineReporter',
    'defineResolver',
    'expect',
    'isAgentestError',
    'outcomeExitCode',
    'runCli',
    'skip',
    'test',
    'todo',
  ]);
  for (const name of ['runSuite', 'fromJsonCases', 'calcMetrics', 'judgeShipability', 'printSummary', 'test', 'expect'])
    assert.equal(typeof (kit as Record<string, unknown>)[name], 'function', `@agentest/test/kit exports ${name}`);
});

test('createRunPlan({ cases }): cases held in memory run with no loader plugin', async () => {
  const kernel = createKernel({ plugins: [agents({ agents: { shout } }), assertions()] });
  const outcome = await kernel.run(
    createRunPlan({
      cases: [
        { id: 'A', input: 'hi', expected: 'HI' },
        { id: 'B', input: 'yo', assert: { type: 'contains', value: 'nope' } },
      ],
      agent: 'shout',
    }),
  );
  assert.equal(outcome.summary.passed, 1);
  assert.equal(outcome.summary.failed, 1);
  assert.equal(api.outcomeExitCode(outcome), 1);
});

test('createRunPlan({ cases }): a bad case or a repeated id is an input error naming cases[i]; input and cases exclude each other', () => {
  assert.throws(
    () => createRunPlan({ cases: [{ id: 'A', input: 'hi' }, { id: 'B' }] }),
    (error: api.AgentestError) =>
      error.code === 'INPUT_INVALID' && /^cases\[1\]: case "B" is missing required field "input"/.test(error.message),
  );
  assert.throws(
    () =>
      createRunPlan({
        cases: [
          { id: 'A', input: 'hi' },
          { id: 'A', input: 'yo' },
        ],
      }),
    /cases\[1\]: duplicate id "A" \(first used in cases\[0\]\)/,
  );
  assert.throws(() => createRunPlan({ input: 'x.jsonl', cases: [] }), /exactly one of them/);
  assert.throws(() => createRunPlan({}), /exactly one of them/);
});

test('defineLoader, createCase, defineResolver and defineAssertion make plugins the default kernel runs', async () => {
  const rows = 'Q1,hello\nQ2,bye';
  const csv = defineLoader({
    name: 'example:csv',
    load: ({ input }) =>
      input.startsWith('csv:')
        ? {
            name: input,
            needsAgent: true,
            cases: () =>
              rows.split('\n').map((row, i) => {
                const [id, text] = row.split(',');
                return createCase(
                  { id, input: text, assert: [{ type: 'shouted' }] },
                  { file: 'inline.csv', line: i + 1 },
                );
              }),
          }
        : undefined,
  });
  let closed = 0;
  const resolver = defineResolver({
    name: 'example:resolver',
    resolve: (ref) => (ref.id === 'loud' ? { id: 'loud', run: shout.run } : undefined),
    teardown: () => void closed++,
  });
  const shouted = defineAssertion({
    type: 'shouted',
    validate: (assertion) => (Object.keys(assertion).length > 1 ? 'takes no options' : undefined),
    check: (_assertion, { output }) => ({ pass: output === String(output).toUpperCase(), message: 'not shouted' }),
  });
  assert.equal(shouted.name, 'assert:shouted');
  const kernel = await createDefaultKernel({ plugins: [csv, resolver, shouted] }, { reporters: [] });
  const outcome = await kernel.run(createRunPlan({ input: 'csv:rows', agent: 'loud' }));
  assert.equal(outcome.summary.passed, 2);
  assert.equal(closed, 1, 'the resolver closes at teardown');
});

test('createCase checks a case as a JSONL line is checked, naming where it came from', () => {
  const made = createCase({ id: 'T1', input: 'hi', expected: 'HI', timeout: '5s' }, { file: 'cases.csv', line: 3 });
  assert.deepEqual(made.messages, [{ role: 'user', content: 'hi' }]);
  assert.deepEqual(made.assert, [{ type: 'equals', value: 'HI' }]);
  assert.equal(made.timeoutMs, 5000);
  assert.deepEqual(made.source, { file: 'cases.csv', line: 3 });
  assert.throws(
    () => createCase({ id: 'T1', input: 'hi', timeout: '5' }, { file: 'cases.csv', line: 3 }),
    /^AgentestError: cases\.csv:3: field "timeout" has no unit/,
  );
});
