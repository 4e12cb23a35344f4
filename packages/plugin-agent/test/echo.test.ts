import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  createKernel,
  type AgentestPlugin,
  type ExecuteContext,
  type Execution,
  type Message,
  type TestCase,
  type TestContext,
} from '@agentest/kernel';
import { countAbortControllers, runPlan } from '@agentest/test-utils';
import { isPromise } from 'node:util/types';
import agents, { echoAgent } from '../src/index.js';
import { run, testCase, type Run } from './helpers.js';

test('-n echo replies with the last user message and the assertions run on it', async () => {
  const cases = [
    testCase('plain', { assert: [{ type: 'contains', value: 'plain' }] }),
    testCase('history', {
      messages: [
        { role: 'user', content: 'first' },
        { role: 'assistant', content: 'ok' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'second' },
            { type: 'image_url', image_url: { url: 'x' } },
            { type: 'text', text: 'part' },
          ],
        },
      ],
    }),
    testCase('wrong', { assert: [{ type: 'contains', value: 'nope' }] }),
  ];
  const { outcome, byId } = await run([agents()], cases, { agent: { id: 'echo' } });
  assert.equal(outcome.summary.agent_id, 'echo');
  assert.equal(byId('plain').status, 'passed');
  assert.equal(byId('plain').output, 'plain');
  assert.equal(byId('history').output, 'second\npart');
  assert.equal(byId('wrong').status, 'failed');
  assert.equal(byId('wrong').error, "output does not contain 'nope'");
});

test('an unknown agent id: the last resolver lists the config agents and built-ins, without telling a user who passed -n to pass it', async () => {
  await assert.rejects(
    run([agents()], [testCase('a')], { agent: { id: 'nobody' } }),
    (e: Error & { code?: string }) => {
      assert.equal(e.code, 'AGENT_NOT_FOUND');
      assert.match(
        e.message,
        /^could not find agent "nobody"; the config declares no agents; built-ins: echo, mock, mock:<file>; or give a Yao assistant id$/,
      );
      return true;
    },
  );
  const configured = agents({
    agents: { 'support.bot': { run: async () => ({ content: 'x' }) }, triage: { run: async () => ({ content: 'y' }) } },
  });
  await assert.rejects(run([configured], [testCase('a')], { agent: { id: 'suport.bot' } }), (e: Error) => {
    assert.match(
      e.message,
      /could not find agent "suport\.bot" \(did you mean "support\.bot"\?\); config agents: support\.bot, triage; built-ins/,
    );
    assert.doesNotMatch(e.message, /pass -n/);
    return true;
  });
});

test('with no -n, a suite hint without an id is not claimed', async () => {
  await assert.rejects(run([agents()], [testCase('a')], {}, { path: 'cases.jsonl' }), { code: 'AGENT_NOT_FOUND' });
});

test('the echo agent is called without the run signal, so a run that reads it nowhere else makes none; a config agent gets its run signal', async () => {
  const cases = ['a', 'b', 'c'].map((id) => testCase(id, { assert: [{ type: 'contains', value: id }] }));
  let echoed: Run | undefined;
  const made = await countAbortControllers(async () => {
    echoed = await run([agents()], cases, { agent: { id: 'echo' } });
  });
  assert.deepEqual(
    ['a', 'b', 'c'].map((id) => echoed!.byId(id).status),
    ['passed', 'passed', 'passed'],
  );
  // The kernel's own (the run's interrupt and hard-stop signals) only: none per case.
  assert.ok(made <= 2, `${made} AbortControllers for 3 echo cases`);

  const signals: AbortSignal[] = [];
  const wrapping = agents({
    agents: {
      around: {
        run: (messages: Message[], ctx: TestContext, signal: AbortSignal) => {
          signals.push(signal);
          return echoAgent.run(messages, ctx, signal);
        },
      },
    },
  });
  await run([wrapping], cases, { agent: { id: 'around' } });
  assert.equal(signals.length, 3);
  assert.equal(new Set(signals).size, 3, 'each run its own signal');
  assert.ok(signals.every((s) => s instanceof AbortSignal && !s.aborted));
});

test('an echo run is answered at once, with no promise to await; any other agent is awaited as before', async () => {
  const taps: { fn: (testCase: TestCase, ctx: Partial<ExecuteContext>) => unknown }[] = [];
  const probe: AgentestPlugin = {
    name: 'test:probe',
    apply: ({ hooks }) =>
      void hooks.execute.for('agent').intercept({ register: (tap) => (taps.push(tap as (typeof taps)[0]), tap) }),
  };
  // Resolving an agent applies the plugins, as a run would.
  const echo = await createKernel({ plugins: [probe, agents()] }).resolveAgent({ id: 'echo' }, runPlan());
  assert.equal(taps.length, 1, 'the agent plugin taps the agent executor once');
  const c = testCase('hello');
  const echoed = taps[0]!.fn(c, { agent: echo, run: 1 });
  assert.equal(isPromise(echoed), false);
  assert.equal((echoed as Execution).output, 'hello');
  assert.equal((echoed as Execution).status, 'passed');
  const other = { id: 'other', run: async () => ({ content: 'hi', text: 'hi' }) };
  const awaited = taps[0]!.fn(c, { agent: other, run: 1, signal: new AbortController().signal });
  assert.equal(isPromise(awaited), true);
  assert.equal(((await awaited) as Execution).output, 'hi');
});
