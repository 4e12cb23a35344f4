import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Agent, AgentCallOptions, Message, TestContext } from '@agentest/kernel';
import agents, { defineAgent } from '../src/index.js';
import { run, testCase } from './helpers.js';

test('an agent that throws, returns garbage or hangs gives error / error / timeout, and the next case still runs', async () => {
  const bot = defineAgent({
    async run(messages: Message[], _ctx: TestContext, signal: AbortSignal) {
      const text = String(messages.at(-1)!.content);
      if (text === 'throws') throw new Error('backend exploded');
      if (text === 'garbage') return 42 as never;
      if (text === 'no-content') return { text: 'hi' } as never;
      if (text === 'hangs') return new Promise<never>(() => {});
      if (text === 'aborts')
        return new Promise<never>((_, reject) =>
          signal.addEventListener('abort', () => reject(new Error('cancelled'))),
        );
      return { content: `ok ${text}`, text: `ok ${text}` };
    },
  });
  const cases = ['throws', 'garbage', 'no-content', 'hangs', 'aborts', 'fine'].map((id) =>
    testCase(id, { timeoutMs: id === 'hangs' || id === 'aborts' ? 20 : undefined }),
  );
  const { outcome, byId } = await run([agents({ agents: { bot } })], cases, { agent: { id: 'bot' } });
  assert.equal(byId('throws').status, 'error');
  assert.equal(byId('throws').error, 'backend exploded');
  assert.equal(byId('garbage').status, 'error');
  assert.equal(byId('garbage').error, 'agent "bot" returned a number instead of a reply object { content, text }');
  assert.equal(byId('no-content').status, 'error');
  assert.match(byId('no-content').error!, /agent "bot" returned a reply without "content" \(keys: text\)/);
  assert.equal(byId('hangs').status, 'timeout');
  assert.equal(byId('hangs').error, 'timeout after 20ms');
  // The agent honours its signal and rejects: still a timeout, not an error.
  assert.equal(byId('aborts').status, 'timeout');
  assert.equal(byId('fine').status, 'passed');
  assert.equal(byId('fine').output, 'ok fine');
  assert.equal(outcome.summary.errors, 3);
  assert.equal(outcome.summary.timeouts, 2);
});

test('non-Error throws and empty messages still give a meaningful error', async () => {
  const bot: Agent = {
    id: 'ignored',
    async run(messages) {
      const text = String(messages.at(-1)!.content);
      if (text === 'string') throw 'rate limited';
      if (text === 'object') throw { code: 429 };
      if (text === 'empty') throw new Error('');
      throw undefined;
    },
  };
  const { byId } = await run(
    [agents({ agents: { bot } })],
    ['string', 'object', 'empty', 'undefined'].map((id) => testCase(id)),
    { agent: { id: 'bot' } },
  );
  assert.equal(byId('string').error, 'rate limited');
  assert.equal(byId('object').error, 'thrown value: {"code":429}');
  assert.equal(byId('empty').error, 'agent "bot" threw Error with no message');
  assert.equal(byId('undefined').error, 'agent "bot" threw undefined');
  for (const r of ['string', 'object', 'empty', 'undefined']) assert.equal(byId(r).status, 'error');
});

test('the reply becomes the execution: output, tool calls, usage, trace, retries; the call carries options and the case', async () => {
  const calls: AgentCallOptions[] = [];
  let seenSignal: AbortSignal | undefined;
  let seenContext: TestContext | undefined;
  const bot = defineAgent({
    id: 'inner-name',
    async run(_messages, ctx, signal, call) {
      calls.push(call!);
      seenSignal = signal;
      seenContext = ctx;
      return {
        content: { answer: 42 },
        text: '{"answer":42}',
        toolCalls: [{ name: 'search', arguments: { q: 'x' } }],
        usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 },
        trace: { model: 'm', retries: 2 },
      };
    },
  });
  const tc = testCase('t1', { options: { temperature: 0 }, user: 'alice' });
  const { outcome, results } = await run([agents({ agents: { bot } })], [tc], { agent: { id: 'bot' } });
  assert.equal(outcome.summary.agent_id, 'bot', 'the config key is the agent id');
  const execution = results[0]!.runs[0]!;
  assert.equal(execution.status, 'passed');
  assert.deepEqual(execution.output, { answer: 42 });
  assert.deepEqual(execution.tool_calls, [{ name: 'search', arguments: { q: 'x' } }]);
  assert.deepEqual(execution.usage, { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 });
  assert.deepEqual(execution.trace, { model: 'm', retries: 2 });
  assert.equal(execution.retries, 2);
  assert.equal(typeof execution.duration_ms, 'number');
  assert.deepEqual(calls[0]!.options, { temperature: 0 });
  assert.equal((calls[0]!.testCase as { id: string }).id, 't1');
  assert.ok(seenSignal instanceof AbortSignal);
  assert.equal(seenContext!.user_id, 'alice');
});

test('a verdict on the reply sets status, error, metrics and details', async () => {
  const bot = defineAgent({
    async run(messages) {
      const text = String(messages.at(-1)!.content);
      if (text === 'bad')
        return {
          content: 'x',
          text: 'x',
          verdict: { status: 'failed', grade: 'FAIL', error: 'judge said no', metrics: { score: 0 } },
        };
      if (text === 'bad-silent') return { content: 'x', text: 'x', verdict: { status: 'failed' } };
      if (text === 'weird') return { content: 'x', text: 'x', verdict: { status: 'maybe' } } as never;
      return {
        content: 'x',
        text: 'x',
        verdict: { status: 'passed', grade: 'PARTIAL', metrics: { score: 0.5 }, details: { why: 'half' } },
      };
    },
  });
  const cases = [
    testCase('bad'),
    testCase('bad-silent'),
    testCase('weird'),
    testCase('partial', { assert: [{ type: 'contains', value: 'x' }] }),
  ];
  const { byId } = await run([agents({ agents: { bot } })], cases, { agent: { id: 'bot' } });
  assert.equal(byId('bad').status, 'failed');
  assert.equal(byId('bad').error, 'judge said no');
  assert.deepEqual(byId('bad').metrics, { score: 0 });
  assert.deepEqual(byId('bad').runs[0]!.details, { grade: 'FAIL' });
  assert.equal(byId('bad-silent').error, 'the agent graded its reply as failed');
  assert.equal(byId('weird').status, 'error');
  assert.match(byId('weird').error!, /verdict with status "maybe"/);
  assert.equal(byId('partial').status, 'passed');
  assert.equal(byId('partial').runs[0]!.assertions.length, 1, 'a passed verdict still runs the assertions');
  assert.deepEqual(byId('partial').runs[0]!.details, { grade: 'PARTIAL', why: 'half' });
});

test('a class instance agent keeps its this, and its close runs at teardown', async () => {
  class Bot {
    greeting = 'hello';
    closed = 0;
    async run(messages: Message[]) {
      const text = `${this.greeting} ${String(messages.at(-1)!.content)}`;
      return { content: text, text };
    }
    close() {
      this.closed++;
    }
  }
  const bot = new Bot();
  const { byId } = await run([agents({ agents: { bot } })], [testCase('a'), testCase('b')], {
    agent: { id: 'bot' },
    runs: 2,
  });
  assert.equal(byId('a').output, 'hello a');
  assert.equal(bot.closed, 1, 'built once per run, closed once');
});
