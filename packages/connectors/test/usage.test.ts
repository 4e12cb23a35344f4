import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startFakeLlm } from '@agentest/fake-llm';
import { createChatClient } from '../src/index.js';
import { openaiConfig } from './helpers.js';
import { runCases, suiteDir } from './cassette-run.js';

const cases = ['a', 'b', 'c', 'd', 'e'].map((id) => ({ id, text: `question ${id}` }));

describe('usage, cost and budgets', () => {
  it('tokens and cost per case and in total, priced from the config', async () => {
    const llm = await startFakeLlm({ default: 'an answer of some words' });
    try {
      const client = createChatClient('fake', openaiConfig(llm), {});
      const run = await runCases(client, suiteDir(), cases.slice(0, 2), {
        cassettes: { ci: false },
        usage: { prices: { 'gpt-fake': { input: 1_000, output: 2_000 } } },
      });
      for (const result of run.results) {
        const usage = result.usage!;
        assert.equal(usage.calls, 1);
        assert.ok(usage.prompt_tokens > 0 && usage.completion_tokens > 0);
        const expected = (usage.prompt_tokens * 1_000 + usage.completion_tokens * 2_000) / 1e6;
        assert.equal(usage.cost_usd, Math.round(expected * 1e6) / 1e6);
      }
      const total = run.summary.usage!;
      assert.equal(total.calls, 2);
      assert.equal(total.total_tokens, run.results[0]!.usage!.total_tokens + run.results[1]!.usage!.total_tokens);
      assert.equal(total.unpriced, undefined);
    } finally {
      await llm.close();
    }
  });

  it('a model without a price counts its tokens and is listed as unpriced', async () => {
    const llm = await startFakeLlm({ default: 'ok' });
    try {
      const client = createChatClient('fake', openaiConfig(llm), {});
      const run = await runCases(client, suiteDir(), cases.slice(0, 1), { cassettes: { ci: false } });
      assert.deepEqual(run.summary.usage!.unpriced, ['gpt-fake']);
      assert.equal(run.summary.usage!.cost_usd, 0);
      assert.ok(run.summary.usage!.total_tokens > 0);
    } finally {
      await llm.close();
    }
  });

  for (const budget of [{ maxTokens: 1 }, { maxCost: 0.000001 }]) {
    const flag = 'maxTokens' in budget ? '--max-tokens' : '--max-cost';
    it(`${flag}: no case starts once it is reached; the rest are not run: budget, and the run exits 1`, async () => {
      const llm = await startFakeLlm({ default: 'ok' });
      try {
        const client = createChatClient('fake', openaiConfig(llm), {});
        const run = await runCases(client, suiteDir(), cases, {
          cassettes: { ci: false },
          usage: { ...budget, prices: { 'gpt-fake': { input: 1, output: 1 } } },
        });
        assert.equal(llm.requests.length, 1, 'only the first case called the model');
        assert.equal(run.results.length, 5, 'every case is in the report');
        assert.equal(run.results[0]!.status, 'passed');
        for (const result of run.results.slice(1)) {
          assert.equal(result.status, 'skipped');
          assert.match(result.skip_reason!, new RegExp(`^not run: budget \\(${flag} [\\d.e-]+ reached: `));
        }
        assert.match(run.summary.halted!, /^budget/);
        assert.equal(run.summary.not_run, 4);
      } finally {
        await llm.close();
      }
    });
  }

  it('a budget lets running cases finish', async () => {
    const llm = await startFakeLlm({ default: 'ok', latencyMs: 20 });
    try {
      const client = createChatClient('fake', openaiConfig(llm), {});
      const run = await runCases(client, suiteDir(), cases, {
        cassettes: { ci: false },
        usage: { maxTokens: 1 },
        parallel: 3,
      });
      const passed = run.results.filter((r) => r.status === 'passed').length;
      assert.equal(passed, 3, 'the three cases in flight when the budget was reached all finished');
      assert.equal(run.results.filter((r) => r.skip_reason?.startsWith('not run: budget')).length, 2);
    } finally {
      await llm.close();
    }
  });
});
