/**
 * `await expect(reply).toSatisfy(criteria, { judge })` in test() files (run in the sandbox, the judge
 * on the main thread) and in live functions (runSuite's path, in this thread).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { expect } from '@agentest/expect';
import { createKernel, type AgentestPlugin, type CaseResult, type Message } from '@agentest/kernel';
import { agents } from '@agentest/plugin-agent';
import { kit } from '../src/index.js';
import { supportAdapter } from './fixtures/support-adapter.js';
import { plan } from './helpers.js';

const HANG_MS = 60_000;

/** `judge` passes when the judged output mentions the delivery; `garbage` answers prose. */
const judgeAgents = {
  judge: {
    async run(messages: Message[]) {
      const payload = JSON.parse(String(messages.at(-1)!.content)) as { output: unknown; criteria: string };
      const passed = payload.criteria.includes('order is') && JSON.stringify(payload.output).includes('SF123');
      return { content: { passed, reason: passed ? 'names the tracking number' : 'no apology' }, text: '' };
    },
  },
  garbage: { run: async () => ({ content: 'Seems OK.', text: '' }) },
};

async function runJudgedKit(input: string, extraTests?: Record<string, unknown>) {
  const results = new Map<string, CaseResult>();
  const collector: AgentestPlugin = {
    name: 'test:collector',
    apply: ({ hooks }) => hooks.report.tap('test:collector', (e) => void (e.type === 'result' && results.set(e.id, e))),
  };
  const kernel = createKernel({
    plugins: [
      agents({ agents: { support: supportAdapter(), ...judgeAgents } as never }),
      kit({ agent: 'support', ...extraTests }),
      collector,
    ],
  });
  await kernel.run(plan(input, { timeoutMs: HANG_MS }));
  return results;
}

test(
  'toSatisfy in a test() file: verdicts, .not, and a judge without a verdict as an error',
  { timeout: HANG_MS },
  async () => {
    const results = await runJudgedKit('judged');
    const byName = new Map([...results.values()].map((r) => [r.name ?? r.id, r]));
    const satisfied = byName.get('satisfied')!;
    assert.equal(satisfied.status, 'passed');
    assert.equal(satisfied.runs[0]!.judge!.calls, 3);
    const record = (satisfied.runs[0]!.details!.judges as { agreement: string; use: string }[])[0]!;
    assert.deepEqual([record.use, record.agreement], ['agents:judge', '3/3']);
    const rejected = byName.get('not satisfied')!;
    assert.equal(rejected.status, 'failed');
    assert.match(rejected.error!, /to satisfy "apologises for the delay" \(judge agents:judge: no apology\)/);
    // The location is the test's line, not the matcher's (the failure comes after the judge's await).
    assert.match(rejected.error!, /\(at \S*tests\/judged\.test\.ts:10:\d+\)$/);
    assert.equal(byName.get('negated')!.status, 'passed');
    const garbage = byName.get('judge garbage')!;
    assert.equal(garbage.status, 'error', 'never a pass, even under .not');
    assert.match(
      garbage.error!,
      /JudgeError: judge \(agents:garbage\): the judge's reply is not a JSON object: "Seems OK\."/,
    );
    assert.match(garbage.error!, /\(at \S*tests\/judged\.test\.ts:20:\d+\)$/);
  },
);

test('toSatisfy without agentest has no judge and says so', async () => {
  await assert.rejects(expect('hi').toSatisfy('greets', { judge: 'agents:x' }), /no judge runner here/);
  await assert.rejects(
    expect('hi').toSatisfy('greets', {} as never),
    /needs a judge: "agents:<id>" or "connector:<id>"/,
  );
});

test('live test functions: each concurrent test’s toSatisfy is answered by its own judge', async () => {
  const { withKitJudge } = await import('../src/kit-judge.js');
  const asked: string[] = [];
  const runner = (name: string, passed: boolean) => async (request: { criteria: unknown }) => {
    asked.push(`${name}:${String(request.criteria)}`);
    await new Promise((resolve) => setImmediate(resolve));
    return { passed, reason: name };
  };
  const [a, b] = await Promise.allSettled([
    withKitJudge(runner('A', true), () => expect('x').toSatisfy('first', { judge: 'agents:j' })),
    withKitJudge(runner('B', false), () => expect('x').toSatisfy('second', { judge: 'agents:j' })),
  ]);
  assert.equal(a.status, 'fulfilled');
  assert.equal(b.status, 'rejected');
  assert.match(String((b as PromiseRejectedResult).reason), /judge agents:j: B/);
  assert.deepEqual(asked.sort(), ['A:first', 'B:second']);
});
