/**
 * The `agent` assertion against the real fake-llm HTTP server: Yao's payload, the trust defaults
 * sent with every request, and every way a judge can fail to give a verdict (garbage, no `passed`,
 * time-out, unreachable, tie), each of which is an error and never a pass or a failure.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startFakeLlm, type FakeLlm, type FakeLlmOptions } from '@agentest/fake-llm';
import { JUDGE_SYSTEM_PROMPT } from '../src/index.js';
import { fakeConnector, HANG_MS, payloadOf, runJudged } from './harness.js';

async function withFake<T>(options: FakeLlmOptions, body: (llm: FakeLlm) => Promise<T>): Promise<T> {
  const llm = await startFakeLlm(options);
  try {
    return await body(llm);
  } finally {
    await llm.close();
  }
}

const judged = (extra: Record<string, unknown> = {}) => ({
  type: 'agent',
  use: 'connector:judge',
  value: 'Response should greet the user',
  ...extra,
});

test(
  'a connector judge gets the built-in prompt and Yao payload, at temperature 0 with the fixed seed',
  { timeout: HANG_MS },
  async () => {
    await withFake({ default: '{"passed": true, "reason": "It greets", "score": 0.9}' }, async (llm) => {
      const { results } = await runJudged(
        [
          {
            id: 'greets',
            input: 'Say <hi> & more',
            output: 'Hello!',
            assert: [judged({ options: { metadata: { context: 'support', input: 'overridden' } } })],
          },
        ],
        { connectors: { judge: fakeConnector(llm) } },
      );
      const result = results.get('greets')!;
      assert.equal(result.status, 'passed');
      const body = llm.requests[0]!.body as {
        messages: { role: string; content: string }[];
        temperature: number;
        seed: number;
      };
      assert.equal(body.messages[0]!.role, 'system');
      assert.equal(body.messages[0]!.content, JUDGE_SYSTEM_PROMPT);
      assert.equal(
        body.messages[1]!.content,
        '{"context":"support","criteria":"Response should greet the user","input":"overridden","output":"Hello!"}',
        'keys sorted, metadata copied to the top level and winning over input',
      );
      assert.equal(body.temperature, 0);
      assert.equal(body.seed, 42);
      const record = result.assertions[0]!.judge!;
      assert.equal(record.use, 'connector:judge');
      assert.equal(record.model, 'judge-fake');
      assert.equal(record.temperature, 0);
      assert.equal(record.seed, 42);
      assert.match(record.prompt_hash, /^sha256:[0-9a-f]{16}$/);
      assert.equal(record.agreement, '1/1');
      assert.deepEqual(record.replies[0]!.response, { passed: true, reason: 'It greets', score: 0.9 });
      assert.equal(result.assertions[0]!.message, 'It greets');
    });
  },
);

test('the payload escapes <, > and & as Go does, and carries the raw input', { timeout: HANG_MS }, async () => {
  await withFake({ default: '{"passed": true}' }, async (llm) => {
    await runJudged([{ id: 'escaped', input: { text: 'a <b> & c' }, output: { z: 1, a: '<x>' }, assert: [judged()] }], {
      connectors: { judge: fakeConnector(llm) },
    });
    const content = (llm.requests[0]!.body as { messages: { content: string }[] }).messages[1]!.content;
    assert.equal(
      content,
      '{"criteria":"Response should greet the user","input":{"text":"a \\u003cb\\u003e \\u0026 c"},"output":{"a":"\\u003cx\\u003e","z":1}}',
    );
    assert.deepEqual(payloadOf(llm.requests[0]!.body).input, { text: 'a <b> & c' });
  });
});

test('options.temperature and options.seed replace the defaults and are recorded', { timeout: HANG_MS }, async () => {
  await withFake({ default: '{"passed": true}' }, async (llm) => {
    const { results } = await runJudged(
      [{ id: 'tuned', output: 'Hi', assert: [judged({ options: { temperature: 0.3, seed: 7 } })] }],
      { connectors: { judge: fakeConnector(llm) } },
    );
    const body = llm.requests[0]!.body as { temperature: number; seed: number };
    assert.equal(body.temperature, 0.3);
    assert.equal(body.seed, 7);
    assert.equal(results.get('tuned')!.assertions[0]!.judge!.seed, 7);
  });
});

test(
  'a rejection fails with the reason; without a reason it says what was rejected; negate inverts a verdict',
  { timeout: HANG_MS },
  async () => {
    await withFake(
      {
        rules: [
          { match: 'rude', reply: '```json\n{"passed": false, "reason": "It is rude"}\n```' },
          { match: 'terse', reply: '{"passed": false}' },
        ],
      },
      async (llm) => {
        const { results } = await runJudged(
          [
            { id: 'rude', output: 'Go away (rude)', assert: [judged()] },
            { id: 'terse', output: 'terse', assert: [judged()] },
            { id: 'negated', output: 'Go away (rude)', assert: [judged({ negate: true })] },
          ],
          { connectors: { judge: fakeConnector(llm) } },
        );
        assert.equal(results.get('rude')!.status, 'failed');
        assert.equal(results.get('rude')!.error, 'It is rude');
        assert.equal(results.get('terse')!.status, 'failed');
        assert.equal(
          results.get('terse')!.error,
          'the judge rejected the output without a reason (criteria: Response should greet the user)',
        );
        assert.equal(results.get('negated')!.status, 'passed');
      },
    );
  },
);

test(
  'garbage and a reply without a boolean "passed" are errors quoting the reply, negated or not',
  { timeout: HANG_MS },
  async () => {
    await withFake(
      {
        rules: [
          { match: 'prose', reply: 'I think it is fine, mostly.' },
          { match: 'stringly', reply: '{"passed": "true", "reason": "ok"}' },
        ],
      },
      async (llm) => {
        const { results, summary } = await runJudged(
          [
            { id: 'prose', output: 'prose', assert: [judged()] },
            { id: 'prose-negated', output: 'prose', assert: [judged({ negate: true })] },
            { id: 'stringly', output: 'stringly', assert: [judged()] },
          ],
          { connectors: { judge: fakeConnector(llm) } },
        );
        for (const id of ['prose', 'prose-negated']) {
          const result = results.get(id)!;
          assert.equal(result.status, 'error', id);
          assert.match(
            result.error!,
            /judge \(connector:judge\): the judge's reply is not a JSON object: "I think it is fine, mostly\."/,
          );
        }
        assert.equal(results.get('stringly')!.status, 'error');
        assert.match(results.get('stringly')!.error!, /has no boolean "passed": "\{\\"passed\\": \\"true\\"/);
        assert.equal(summary.errors, 3);
      },
    );
  },
);

test('a judge that hangs past options.timeout is an error naming the limit', { timeout: HANG_MS }, async () => {
  await withFake({ rules: [{ fault: 'hang' }] }, async (llm) => {
    const { results } = await runJudged(
      [{ id: 'hung', output: 'Hi', assert: [judged({ options: { timeout: '300ms' } })] }],
      { connectors: { judge: fakeConnector(llm) } },
    );
    const result = results.get('hung')!;
    assert.equal(result.status, 'error');
    assert.match(result.error!, /connector:judge gave no answer within 300ms/);
    assert.equal(result.assertions[0]!.judge!.votes.errors, 1);
  });
});

test('an unreachable judge and an unknown one are errors, never verdicts', { timeout: HANG_MS }, async () => {
  const llm = await startFakeLlm({});
  const closed = fakeConnector(llm);
  await llm.close();
  const { results } = await runJudged(
    [
      { id: 'down', output: 'Hi', assert: [judged()] },
      { id: 'unknown', output: 'Hi', assert: [judged({ use: 'connector:nope', negate: true })] },
    ],
    { connectors: { judge: closed } },
  );
  assert.equal(results.get('down')!.status, 'error');
  assert.match(results.get('down')!.error!, /connector:judge failed: /);
  assert.equal(results.get('unknown')!.status, 'error');
  assert.match(
    results.get('unknown')!.error!,
    /judge \(connector:nope\): cannot find connector:nope: no connector "nope"/,
  );
});

test(
  'samples: 3 asks three times with seeds 42, 43, 44 and records the 2/3 majority',
  { timeout: HANG_MS },
  async () => {
    await withFake(
      {
        rules: [
          { times: 1, reply: '{"passed": false, "reason": "not quite"}' },
          { reply: '{"passed": true, "reason": "greets"}' },
        ],
      },
      async (llm) => {
        const { results } = await runJudged([{ id: 'sampled', output: 'Hello', assert: [judged({ samples: 3 })] }], {
          connectors: { judge: fakeConnector(llm) },
        });
        const result = results.get('sampled')!;
        assert.equal(result.status, 'passed');
        const record = result.assertions[0]!.judge!;
        assert.equal(record.agreement, '2/3');
        assert.deepEqual(record.votes, { passed: 2, failed: 1, errors: 0 });
        assert.equal(record.calls, 3);
        const seeds = llm.requests.map((r) => (r.body as { seed: number }).seed).sort();
        assert.deepEqual(seeds, [42, 43, 44]);
      },
    );
  },
);

test('an even split is an error that says it is a tie', { timeout: HANG_MS }, async () => {
  await withFake(
    { rules: [{ times: 1, reply: '{"passed": false, "reason": "no"}' }, { reply: '{"passed": true}' }] },
    async (llm) => {
      const { results } = await runJudged(
        [{ id: 'tied', output: 'Hi', assert: [judged({ samples: 2, negate: true })] }],
        {
          connectors: { judge: fakeConnector(llm) },
        },
      );
      const result = results.get('tied')!;
      assert.equal(result.status, 'error');
      assert.match(result.error!, /judge tie \(connector:judge\): 1 of 2 samples passed and 1 failed; no majority/);
      assert.deepEqual(result.assertions[0]!.judge!.votes, { passed: 1, failed: 1, errors: 0 });
    },
  );
});

test('one sample that errs makes the judgement an error, whatever the others said', { timeout: HANG_MS }, async () => {
  await withFake({ rules: [{ times: 1, reply: 'garbage' }, { reply: '{"passed": true}' }] }, async (llm) => {
    const { results } = await runJudged([{ id: 'partial', output: 'Hi', assert: [judged({ samples: 3 })] }], {
      connectors: { judge: fakeConnector(llm) },
    });
    const result = results.get('partial')!;
    assert.equal(result.status, 'error');
    assert.match(
      result.error!,
      /judge sample \d of 3 \(connector:judge\): the judge's reply is not a JSON object: "garbage"/,
    );
  });
});

test('the judge usage and time are counted apart from the agent’s', { timeout: HANG_MS }, async () => {
  await withFake(
    { default: { text: '{"passed": true}', usage: { prompt_tokens: 100, completion_tokens: 5 } } },
    async (llm) => {
      const { results } = await runJudged([{ id: 'costed', output: 'Hi', assert: [judged({ samples: 3 })] }], {
        connectors: { judge: fakeConnector(llm) },
      });
      const run = results.get('costed')!.runs[0]!;
      assert.deepEqual(run.usage, { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 }, 'the agent’s own');
      assert.equal(run.judge!.calls, 3);
      assert.equal(run.judge!.usage!.prompt_tokens, 300);
      assert.equal(run.judge!.usage!.completion_tokens, 15);
      assert.ok(run.judge!.duration_ms > 0);
    },
  );
});

test(
  'samples run concurrently: a config-agent judge sees all three calls before answering any',
  { timeout: HANG_MS },
  async () => {
    let started = 0;
    let release!: () => void;
    const allStarted = new Promise<void>((resolve) => (release = resolve));
    const judgeAgent = {
      async run() {
        if (++started === 3) release();
        await allStarted;
        return { content: { passed: true, reason: 'fine' }, text: '' };
      },
    };
    const { results } = await runJudged(
      [{ id: 'parallel', output: 'Hi', assert: [judged({ use: 'agents:judge-agent', samples: 3 })] }],
      {
        agents: { 'judge-agent': judgeAgent },
      },
    );
    assert.equal(results.get('parallel')!.status, 'passed');
    assert.equal(started, 3);
    assert.deepEqual(results.get('parallel')!.assertions[0]!.judge!.votes, { passed: 3, failed: 0, errors: 0 });
  },
);

test('with --runs 3 the case reports agent variance apart from judge variance', { timeout: HANG_MS }, async () => {
  await withFake(
    { rules: [{ times: 1, reply: '{"passed": false, "reason": "no"}' }, { reply: '{"passed": true}' }] },
    async (llm) => {
      const { results } = await runJudged([{ id: 'varied', output: 'Hi', assert: [judged({ samples: 3 })] }], {
        connectors: { judge: fakeConnector(llm) },
        runs: 3,
      });
      const result = results.get('varied')!;
      assert.deepEqual(result.variance!.agent, { runs: 3, passed: 3, pass_rate: 1 });
      assert.deepEqual(
        { ...result.variance!.judge, agreement: undefined },
        { judgements: 3, samples: 9, agreeing: 8, agreement: undefined, split: 1, no_verdict: 0 },
      );
    },
  );
});
