/**
 * Sampled judgements against the real fake-llm HTTP server: k samples asked at once with seeds
 * seed..seed+k-1, the majority and its agreement, ties and erring samples as errors, the judge's
 * cost counted apart from the agent's, and agent variance apart from judge variance.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AgentestError, AgentestPlugin } from '@agentest/kernel';
import { fakeConnector, HANG_MS, judged, runJudged, withFake } from './harness.js';

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

test(
  'a judge that cannot be found is looked up once, before any case: a configuration error naming the first case',
  { timeout: HANG_MS },
  async () => {
    let lookups = 0;
    const counter: AgentestPlugin = {
      name: 'test:counter',
      apply({ hooks }) {
        hooks.resolve.tapPromise('test:counter', async (ref) => {
          if (ref.id === 'connector:nope') lookups++;
          return undefined;
        });
      },
    };
    const cases = ['a', 'b', 'c'].map((id) => ({
      id,
      output: 'Hi',
      assert: [judged({ use: 'connector:nope', samples: 3 })],
    }));
    await assert.rejects(runJudged(cases, { plugins: [counter] }), (error: AgentestError) => {
      assert.equal(error.code, 'HELPER_NOT_FOUND');
      assert.equal(error.where, 'inline.jsonl:1');
      assert.match(
        error.message,
        /^inline\.jsonl:1: case "a": the judge connector:nope cannot be found: no connector "nope"/,
      );
      return true;
    });
    assert.equal(lookups, 1);
  },
);
