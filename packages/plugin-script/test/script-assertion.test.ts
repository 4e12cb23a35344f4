import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { AgentestPlugin, Assertion, TestCase } from '@agentest/kernel';
import { APP, plan, runKernel } from './helpers.js';

/** Cases from a JSONL file inside the fixture app, answered by an echo agent. */
function inline(cases: { id: string; input: string; expected?: unknown; assert: Assertion[] }[]): AgentestPlugin {
  const testCases: TestCase[] = cases.map((c, i) => ({
    ...c,
    kind: 'agent',
    messages: [{ role: 'user', content: c.input }],
    source: { file: 'assistants/hooks/tests/inputs.jsonl', line: i + 1 },
  }));
  return {
    name: 'test:inline',
    apply({ hooks }) {
      hooks.load.tapPromise('test:inline', async (input) =>
        input.input === 'inline' ? { name: 'inline', needsAgent: true, cases: () => testCases } : undefined,
      );
      hooks.resolve.tapPromise('test:inline', async () => ({
        id: 'echo',
        run: async (m) => ({ content: `echo ${m.at(-1)!.content}`, text: '' }),
      }));
      hooks.execute.for('agent').tapPromise('test:inline', async (c, ctx) => {
        const reply = await ctx.agent!.run(c.messages, ctx.context, ctx.signal);
        return { run: ctx.run, status: 'passed', duration_ms: 1, output: reply.content, assertions: [], metrics: {} };
      });
    },
  };
}

const script = (name: string, extra: Partial<Assertion> = {}): Assertion => ({
  type: 'script',
  script: `scripts.test.${name}`,
  ...extra,
});

describe('script assertion', () => {
  it('passes and fails on a boolean, with (output, input, value) and the value falling back to expected', async () => {
    const { results } = await runKernel(plan('inline', APP), {}, [
      inline([
        { id: 'pass', input: 'hello', assert: [script('ValidateOutput', { value: 'hello' })] },
        { id: 'expected', input: 'hello', expected: 'echo', assert: [script('ValidateOutput')] },
        { id: 'fail', input: 'hello', assert: [script('ValidateOutput', { value: 'bye' })] },
      ]),
    ]);
    assert.deepEqual(
      results.map((r) => [r.id, r.status]),
      [
        ['pass', 'passed'],
        ['expected', 'passed'],
        ['fail', 'failed'],
      ],
    );
    assert.equal(results[2].error, 'scripts.test.ValidateOutput returned false');
  });

  it('takes {pass, message} and reports the message', async () => {
    const { results } = await runKernel(plan('inline', APP), {}, [
      inline([{ id: 'd', input: 'hi', assert: [script('Detailed', { value: 'other' })] }]),
    ]);
    assert.equal(results[0].status, 'failed');
    assert.equal(results[0].error, 'compared "echo hi" with "other" for hi');
  });

  it('cannot judge on a throw, a timeout, a bad return or a missing function: the case is an error, negated or not', async () => {
    // Only the hanging script gets a short limit: on a busy machine a first call can take longer than that.
    const hanging = await runKernel(plan('inline', APP), { assertionTimeout: '300ms' }, [
      inline([{ id: 'hangs', input: 'x', assert: [script('Hangs')] }]),
    ]);
    const { results, summary } = await runKernel(plan('inline', APP), {}, [
      inline([
        { id: 'throws', input: 'x', assert: [script('Throws')] },
        { id: 'weird', input: 'x', assert: [script('Weird')] },
        { id: 'missing', input: 'x', assert: [script('Nope')] },
        { id: 'nofile', input: 'x', assert: [{ type: 'script', script: 'scripts.nofile.Fn' }] },
        { id: 'negated-throws', input: 'x', assert: [script('Throws', { negate: true })] },
        { id: 'negated-weird', input: 'x', assert: [script('Weird', { negate: true })] },
        { id: 'negated-missing', input: 'x', assert: [script('Nope', { negate: true })] },
      ]),
    ]);
    assert.equal(summary.errors, 7);
    assert.equal(hanging.summary.errors, 1);
    const all = [...results, ...hanging.results];
    for (const result of all) assert.equal(result.status, 'error', `${result.id}: ${result.error}`);
    const errors = Object.fromEntries(
      all.map((r) => [r.id, r.error!.replace(/^script assertion could not be evaluated: /, '')]),
    );
    assert.match(
      errors.throws!,
      /^scripts\.test\.Throws failed: Error: validator exploded|^scripts\.test\.Throws failed: validator exploded/,
    );
    assert.match(errors.hangs!, /^scripts\.test\.Hangs timed out: timeout after 300ms/);
    assert.equal(errors.weird, 'scripts.test.Weird returned 42; return a boolean or {pass, message}');
    assert.equal(errors.missing, `scripts.test.Nope: no function Nope in ${join(APP, 'scripts/test.ts')}`);
    assert.match(errors.nofile!, /tried: scripts\/nofile\.ts, scripts\/nofile\.js/);
    assert.equal(errors['negated-weird'], errors.weird);
  });
});
