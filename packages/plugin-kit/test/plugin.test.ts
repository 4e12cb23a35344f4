import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createKernel, type CaseResult } from '@agentest/kernel';
import { kit } from '../src/index.js';
import { supportAdapter } from './fixtures/support-adapter.js';
import { plan, runKit } from './helpers.js';

const grade = (r: CaseResult | undefined) =>
  `${r?.status}${r?.runs[0]?.details?.grade ? `/${r.runs[0].details.grade}` : ''}${r?.todo ? '/todo' : ''}`;

describe('kit mode', () => {
  test('a directory mixes cases.json and test() files, with every status', async () => {
    const { results } = await runKit('mixed', supportAdapter());
    assert.deepEqual(Object.fromEntries([...results].map(([id, r]) => [id, grade(r)])), {
      C001: 'passed/PASS',
      C002: 'passed/PARTIAL',
      C003: 'skipped',
      C004: 'skipped/todo',
      'mixed/tests/conversation.test.ts#multi-turn refund': 'passed/PASS',
      'mixed/tests/conversation.test.ts#fails an expectation': 'failed/FAIL',
      'mixed/tests/conversation.test.ts#empty message throw': 'error/FAIL',
      'mixed/tests/conversation.test.ts#data form': 'passed/PASS',
      'mixed/tests/conversation.test.ts#skipped': 'skipped',
      'mixed/tests/conversation.test.ts#later': 'skipped/todo',
    });
  });

  test('the adapter receives every field of a case, intent included', async () => {
    const calls: Record<string, unknown>[] = [];
    await runKit('mixed/cases.json', supportAdapter(calls));
    const c001 = calls.find((c) => c.case_id === 'C001');
    assert.equal(c001?.intent, 'order_tracking');
    assert.equal(c001?.difficulty, 'easy');
    assert.deepEqual(c001?.expected_keywords, ['order_tracking']);
    assert.equal(calls.find((c) => c.case_id === 'C002')?.notes, 'wrong intent on purpose: PARTIAL');
  });

  test('ctx.run holds a multi-turn conversation and passes extra fields through', async () => {
    const calls: Record<string, unknown>[] = [];
    const { results } = await runKit('mixed/tests/conversation.test.ts', supportAdapter(calls), {
      plan: { filter: /multi-turn/ },
    });
    const result = results.get('mixed/tests/conversation.test.ts#multi-turn refund')!;
    assert.equal(result.status, 'passed', result.error);
    assert.equal(calls.length, 2);
    assert.equal(calls[1]!.sessionId, 's1', 'the test threads the session id of the first reply');
    assert.equal(calls[1]!.intent, 'refund_request');
    assert.equal((calls[1]!.messages as unknown[]).length, 3, 'the second turn carries the first exchange');
    const turns = result.runs[0]!.details!.turns as { grade: string }[];
    assert.deepEqual(
      turns.map((t) => t.grade),
      ['PASS', 'PASS'],
    );
    assert.deepEqual(result.runs[0]!.logs, ['session s1']);
  });

  test('failures say what was expected and where; an empty message still fails with a reason', async () => {
    const { results } = await runKit('mixed/tests/conversation.test.ts', supportAdapter());
    const failed = results.get('mixed/tests/conversation.test.ts#fails an expectation')!;
    assert.match(
      failed.error!,
      /^expected intent to be "order_tracking", got \["account_management"\] \(at .*conversation\.test\.ts:15:\d+\)$/,
    );
    assert.deepEqual(failed.assertions[0], {
      type: 'expect.toHaveIntent',
      pass: false,
      message: 'expected intent to be "order_tracking", got ["account_management"]',
      expected: 'order_tracking',
      actual: ['account_management'],
    });
    assert.match(
      results.get('mixed/tests/conversation.test.ts#empty message throw')!.error!,
      /^Error thrown with an empty message/,
    );
  });

  test('a registration in one file never reaches another file; per-test timeouts end hung tests', async () => {
    const { results } = await runKit('isolation', supportAdapter(), { plan: { parallel: 3 } });
    assert.deepEqual(
      Object.fromEntries([...results].map(([id, r]) => [id, r.status])),
      {
        'isolation/tests/a.test.ts#a1': 'passed',
        'isolation/tests/a.test.ts#a2': 'passed',
        'isolation/tests/b.test.ts#b1': 'passed',
        'isolation/tests/b.test.ts#b-leak-check': 'skipped',
        'isolation/tests/c.test.ts#c1 sees no global left by b1': 'passed',
        'isolation/tests/c.test.ts#slow': 'timeout',
      },
      JSON.stringify([...results.values()].map((r) => r.error)),
    );
    assert.match(results.get('isolation/tests/c.test.ts#slow')!.error!, /timeout after 200ms/);
  });

  test('test.only narrows the run to the focused tests, data cases included', async () => {
    const { results } = await runKit('only', supportAdapter());
    assert.deepEqual(
      Object.fromEntries(
        [...results].map(([id, r]) => [id, r.status === 'skipped' ? `skipped: ${r.skip_reason}` : r.status]),
      ),
      {
        J1: 'skipped: not marked .only (another test is)',
        'only/tests/one.test.ts#ordinary': 'skipped: not marked .only (another test is)',
        'only/tests/one.test.ts#focused': 'passed',
      },
    );
  });

  test('with forbidOnly (CI), a test.only is an error naming its file and line, before any case runs', async () => {
    const calls: Record<string, unknown>[] = [];
    await assert.rejects(
      runKit('only', supportAdapter(calls), { plan: { forbidOnly: true } }),
      (error: Error & { code?: string }) => {
        assert.equal(error.code, 'ONLY_FORBIDDEN');
        assert.match(
          error.message,
          /^only\/tests\/one\.test\.ts:4: test\.only\("focused"\) would skip every other case; CI is set, .*--allow-only$/,
        );
        return true;
      },
    );
    assert.equal(calls.length, 0);
  });

  test('a glob selects test files', async () => {
    const { results } = await runKit('isolation/tests/{a,b}.test.ts', supportAdapter());
    assert.deepEqual([...results.keys()].sort(), [
      'isolation/tests/a.test.ts#a1',
      'isolation/tests/a.test.ts#a2',
      'isolation/tests/b.test.ts#b-leak-check',
      'isolation/tests/b.test.ts#b1',
    ]);
  });

  test('a directory of test files with no tests/ folder runs its own test files', async () => {
    const { results } = await runKit('isolation/tests', supportAdapter());
    assert.deepEqual([...results.keys()].sort(), [
      'isolation/tests/a.test.ts#a1',
      'isolation/tests/a.test.ts#a2',
      'isolation/tests/b.test.ts#b-leak-check',
      'isolation/tests/b.test.ts#b1',
      'isolation/tests/c.test.ts#c1 sees no global left by b1',
      'isolation/tests/c.test.ts#slow',
    ]);
  });

  test('metrics follow the seed and failed cases block the ship verdict', async () => {
    const { outcome } = await runKit('mixed', supportAdapter(), {
      plan: { thresholds: { keyword_hit_rate: 0.7, intent_match_rate: 0.5 } },
    });
    const summary = outcome.summary;
    assert.equal(summary.metrics?.keyword_hit_rate, 1);
    assert.ok(summary.metrics!.intent_match_rate! < 1, 'the PARTIAL case lowers the intent match rate');
    assert.equal(summary.verdict?.can_ship, false);
    assert.match(summary.verdict!.issues.join('\n'), /Pass Rate .* < threshold 100\.0%/);
  });

  test('an explicit pass_rate threshold replaces the implicit one', async () => {
    const adapter = supportAdapter();
    const crashing = {
      ...adapter,
      call: (input: Record<string, unknown>) =>
        input.case_id === 'C002' ? Promise.reject(new Error('down')) : adapter.call(input),
    };
    const { outcome } = await runKit('mixed/cases.json', crashing, { plan: { thresholds: { pass_rate: 0.5 } } });
    assert.deepEqual(outcome.summary.thresholds, { pass_rate: 0.5 });
    assert.equal(outcome.summary.errors, 1);
    assert.equal(outcome.summary.verdict?.can_ship, true);
  });

  test('an evaluation with an empty error or a string structure_ok is a FAIL', async () => {
    const adapter = {
      call: async (input: { case_id: string }) => ({ elapsed_ms: 1, error: null, raw: input.case_id }),
      evaluate: (c: { raw: string }) => ({
        ...c,
        error: c.raw === 'C001' ? '' : null,
        structure_ok: c.raw === 'C002' ? 'false' : true,
        intent_matched: true,
        keyword_hit_rate: null,
        quality_score: 5,
      }),
    };
    const { results } = await runKit('mixed/cases.json', adapter);
    assert.equal(grade(results.get('C001')), 'failed/FAIL');
    assert.equal(results.get('C001')!.error, 'the adapter reported an error with an empty message');
    assert.equal(grade(results.get('C002')), 'failed/FAIL');
    assert.match(results.get('C002')!.error!, /structure_ok is "false"/);
  });

  test('inputs that are not kit inputs are left to other loaders', async () => {
    const kernel = createKernel({ plugins: [kit()] });
    await assert.rejects(kernel.run(plan('no-such-thing.jsonl')), /NO_LOADER|no plugin recognised/);
  });

  test('invalid options are a plugin error', () => {
    const kernel = createKernel({ plugins: [kit({ include: 3 as never })] });
    return assert.rejects(kernel.run(plan('mixed')), /agentest:kit options: include/);
  });
});
