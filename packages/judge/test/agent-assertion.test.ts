/**
 * The `agent` assertion against the real fake-llm HTTP server: Yao's payload, the trust defaults
 * sent with every request, and every way a judge can fail to give a verdict (garbage, no `passed`,
 * time-out, unreachable, tie), each of which is an error and never a pass or a failure.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startFakeLlm } from '@agentest/fake-llm';
import { JUDGE_SYSTEM_PROMPT } from '../src/index.js';
import { fakeConnector, HANG_MS, judged, payloadOf, runJudged, withFake } from './harness.js';

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

test('an unreachable judge is an error, never a verdict', { timeout: HANG_MS }, async () => {
  const llm = await startFakeLlm({});
  const closed = fakeConnector(llm);
  await llm.close();
  const { results } = await runJudged([{ id: 'down', output: 'Hi', assert: [judged({ negate: true })] }], {
    connectors: { judge: closed },
  });
  assert.equal(results.get('down')!.status, 'error');
  assert.match(results.get('down')!.error!, /connector:judge failed: /);
});

test('an unknown judge stops the run before any case: the case, its line and the id, with a suggestion', async () => {
  const cases = [
    { id: 'fine', output: 'Hi', assert: [judged()] },
    { id: 'typo', output: 'Hi', assert: [judged({ use: 'connector:judeg' })] },
    { id: 'agent', output: 'Hi', assert: [judged({ use: 'agents:nobody' })] },
  ];
  await assert.rejects(
    runJudged(cases, {
      connectors: { judge: { type: 'openai', options: { host: 'http://127.0.0.1:9', model: 'm' } } },
    }),
    {
      code: 'HELPER_NOT_FOUND',
      where: 'inline.jsonl:2',
      message:
        /^inline\.jsonl:2: case "typo": the judge connector:judeg cannot be found: no connector "judeg" \(did you mean "judge"\?\)/,
    },
  );
  await assert.rejects(runJudged(cases.slice(2), {}), {
    code: 'HELPER_NOT_FOUND',
    message: /^inline\.jsonl:1: case "agent": the judge agents:nobody cannot be found: could not find agent "nobody"/,
  });
});
