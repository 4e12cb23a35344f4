import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AgentestPlugin } from '@agentest/kernel';
import agents, { defineAdapter, type AdapterInput, type StandardResult } from '../src/index.js';
import { run, testCase } from './helpers.js';

/** A kit-style adapter: the "system" answers with the keywords it finds in the query. */
function keywordAdapter(options: { asyncEvaluate?: boolean } = {}) {
  const inputs: AdapterInput[] = [];
  const adapter = defineAdapter({
    async call(input) {
      inputs.push(input);
      if (input.query === 'crash') throw new Error('connection refused');
      return {
        case_id: input.case_id,
        query: input.query,
        elapsed_ms: 12,
        error: input.query === 'down' ? 'HTTP 503' : null,
        raw: { text: input.query, intent: input.query.split(' ')[0] },
      };
    },
    evaluate(callResult, input): StandardResult | Promise<StandardResult> {
      const hits = input.expected_keywords.filter((k) => callResult.raw.text.includes(k));
      const result: StandardResult = {
        ...callResult,
        structure_ok: !callResult.error && !input.query.includes('broken'),
        intent_matched: !input.intent || callResult.raw.intent === input.intent,
        keyword_hits: hits,
        keyword_hit_rate: input.expected_keywords.length ? hits.length / input.expected_keywords.length : null,
        quality_score: 4,
        failure_details: input.query.includes('broken') ? ['missing field "data"'] : [],
      };
      return options.asyncEvaluate ? new Promise((r) => setImmediate(() => r(result))) : result;
    },
  });
  return { adapter, inputs };
}

const kitCase = (id: string, query: string, data: Record<string, unknown> = {}) =>
  testCase(id, { input: query, messages: [{ role: 'user', content: query }], data: { case_id: id, query, ...data } });

for (const asyncEvaluate of [false, true]) {
  test(`adapter with ${asyncEvaluate ? 'an async' : 'a sync'} evaluate: PASS, PARTIAL and FAIL with the kit's rules`, async () => {
    const { adapter } = keywordAdapter({ asyncEvaluate });
    const cases = [
      kitCase('pass', 'order tracking please', { expected_keywords: ['order', 'tracking'], intent: 'order' }),
      kitCase('half', 'order status', { expected_keywords: ['order', 'refund'] }),
      kitCase('low', 'order status', { expected_keywords: ['refund', 'tracking', 'order'] }),
      kitCase('intent', 'refund now', { intent: 'order' }),
      kitCase('broken', 'broken reply'),
      kitCase('down', 'down'),
    ];
    const { byId, outcome } = await run([agents({ agents: { bot: adapter } })], cases, { agent: { id: 'bot' } });

    assert.equal(byId('pass').status, 'passed');
    assert.equal(byId('pass').runs[0]!.details!.grade, 'PASS');
    assert.deepEqual(byId('pass').metrics, {
      keyword_hit_rate: 1,
      intent_match_rate: 1,
      quality_score: 4,
      latency_ms: 12,
    });
    assert.equal((byId('pass').output as StandardResult).structure_ok, true, 'the output is the evaluation');
    assert.deepEqual((byId('pass').runs[0]!.reply!.raw as { raw: unknown }).raw, {
      text: 'order tracking please',
      intent: 'order',
    });

    assert.equal(byId('half').runs[0]!.details!.grade, 'PASS', 'exactly 0.5 is a PASS');
    // PARTIAL is a partial success: passed, with the grade and the reasons kept.
    assert.equal(byId('low').status, 'passed');
    assert.deepEqual(byId('low').runs[0]!.details, {
      grade: 'PARTIAL',
      keyword_hits: ['order'],
      partial_reasons: ['keyword hit rate 33.3% < 50%'],
    });
    assert.equal(byId('intent').status, 'passed');
    assert.equal(byId('intent').runs[0]!.details!.grade, 'PARTIAL');
    assert.equal(byId('intent').metrics.intent_match_rate, 0);

    assert.equal(byId('broken').status, 'failed');
    assert.equal(byId('broken').error, 'structure check failed: missing field "data"');
    assert.equal(byId('broken').runs[0]!.details!.grade, 'FAIL');
    assert.equal(byId('down').status, 'failed');
    assert.equal(byId('down').error, 'HTTP 503');

    assert.equal(outcome.summary.passed, 4);
    assert.equal(outcome.summary.failed, 2);
    assert.equal(outcome.summary.metrics!.intent_match_rate, 0.8333, 'only the wrong-intent case misses');
  });
}

test('the adapter receives every field of the case', async () => {
  const { adapter, inputs } = keywordAdapter();
  const messages = [
    { role: 'system', content: 'be brief' },
    { role: 'user', content: 'first' },
    { role: 'assistant', content: 'hi' },
    { role: 'user', content: 'where is my order' },
  ];
  const jsonl = testCase('T001', {
    input: messages,
    messages,
    expected: { intent: 'order' },
    metadata: { channel: 'web', priority: 2 },
    options: { temperature: 0.2, connector: 'gpt', skip: { history: true } },
  });
  const kit = kitCase('C001', 'refund please', {
    expected_keywords: ['refund'],
    intent: 'refund',
    difficulty: 'hard',
    notes: 'vip',
    expected_behavior: 'apologise',
    custom: true,
  });
  await run([agents({ agents: { bot: adapter } })], [jsonl, kit], { agent: { id: 'bot' } });

  assert.deepEqual(inputs[0], {
    id: 'T001',
    case_id: 'T001',
    query: 'where is my order',
    messages,
    expected: { intent: 'order' },
    expected_keywords: [],
    channel: 'web',
    priority: 2,
    temperature: 0.2,
  });
  assert.deepEqual(inputs[1], {
    id: 'C001',
    case_id: 'C001',
    query: 'refund please',
    messages: [{ role: 'user', content: 'refund please' }],
    expected_keywords: ['refund'],
    intent: 'refund',
    difficulty: 'hard',
    notes: 'vip',
    expected_behavior: 'apologise',
    custom: true,
  });
});

test('ctx.run extra fields (sessionId, query, keywords) reach the adapter from spec cases', async () => {
  const { adapter, inputs } = keywordAdapter();
  const outputs: unknown[] = [];
  // A stand-in for the test() executor: two turns through the suite's agent, as ctx.run does.
  const specExecutor: AgentestPlugin = {
    name: 'test:spec',
    apply: ({ hooks }) =>
      hooks.execute.for('spec').tapPromise('test:spec', async (tc, ctx) => {
        const first = await ctx.agent!.run([{ role: 'user', content: 'order one' }], ctx.context, ctx.signal, {
          testCase: tc,
        });
        const second = await ctx.agent!.run([{ role: 'user', content: 'refund it' }], ctx.context, ctx.signal, {
          testCase: tc,
          extra: { query: 'refund it', sessionId: 's-1', expected_keywords: ['refund'] },
        });
        outputs.push(first.content, second.content);
        return { run: ctx.run, status: 'passed', duration_ms: 1, assertions: [], metrics: {} };
      }),
  };
  await run(
    [agents({ agents: { bot: adapter } }), specExecutor],
    [testCase('T001', { kind: 'spec', data: { file: 'a.test.ts', index: 0 } })],
    { agent: { id: 'bot' } },
  );
  assert.deepEqual(inputs[0], {
    id: 'T001',
    case_id: 'T001',
    query: 'order one',
    messages: [{ role: 'user', content: 'order one' }],
    expected_keywords: [],
  });
  assert.equal(inputs[1]!.sessionId, 's-1');
  assert.deepEqual(inputs[1]!.expected_keywords, ['refund']);
  assert.equal((outputs[1] as StandardResult).keyword_hit_rate, 1, 'ctx.run gets the evaluation');
});

test('an adapter whose call throws is an error on that case alone; a bad evaluate is named', async () => {
  const { adapter } = keywordAdapter();
  const broken = { call: (input: AdapterInput) => ({ echo: input.query }), evaluate: () => undefined };
  const plain = { call: (input: AdapterInput) => ({ echo: input.query, elapsed_ms: 3 }) };
  const cases = [kitCase('crash', 'crash'), kitCase('after', 'order')];
  const { byId } = await run([agents({ agents: { bot: adapter } })], cases, { agent: { id: 'bot' } });
  assert.equal(byId('crash').status, 'error');
  assert.equal(byId('crash').error, 'connection refused');
  assert.equal(byId('after').status, 'passed');

  const second = await run([agents({ agents: { broken } })], [kitCase('x', 'hello')], { agent: { id: 'broken' } });
  assert.equal(second.results[0]!.status, 'error');
  assert.match(second.results[0]!.error!, /adapter "broken": evaluate\(\) returned undefined/);

  const third = await run([agents({ agents: { plain } })], [kitCase('y', 'hello', { expected_keywords: ['x'] })], {
    agent: { id: 'plain' },
  });
  assert.deepEqual(
    third.results[0]!.output,
    { echo: 'hello', elapsed_ms: 3 },
    'without evaluate the output is the call result',
  );
  assert.deepEqual(third.results[0]!.metrics, { latency_ms: 3 });
  assert.equal(third.results[0]!.runs[0]!.details!.grade, 'PASS');
});

test('input.signal lets an adapter cancel its request at the case timeout; it stays out of spreads', async () => {
  let cancelled = false;
  let keys: string[] = [];
  const slow = defineAdapter({
    call: (input) => {
      keys = Object.keys({ ...input });
      return new Promise((_, reject) =>
        input.signal!.addEventListener('abort', () => {
          cancelled = true;
          reject(new Error('aborted'));
        }),
      );
    },
  });
  const { results } = await run([agents({ agents: { slow } })], [testCase('x', { timeoutMs: 20 })], {
    agent: { id: 'slow' },
  });
  assert.equal(results[0]!.status, 'timeout');
  assert.ok(cancelled);
  assert.ok(!keys.includes('signal'));
});
