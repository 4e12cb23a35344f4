import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  createKernel,
  type AgentestPlugin,
  type Execution,
  type RunPlan,
  type Status,
  type TestCase,
} from '@agentest/kernel';
import { sprtRunPolicy } from '../src/index.js';

const runs = (...statuses: Status[]): Execution[] =>
  statuses.map((status, i) => ({ run: i + 1, status, duration_ms: 1, assertions: [], metrics: {} }));
const testCase = (id: string): TestCase => ({ id, kind: 'agent', input: id, source: { file: 'inline.jsonl' } });

test('with the defaults a case is accepted after 4 straight passes and flagged at its second failure', () => {
  const policy = sprtRunPolicy();
  const c = testCase('a');
  assert.equal(policy(c, runs('passed', 'passed', 'passed'), 10).stop, false);
  const accepted = policy(c, runs('passed', 'passed', 'passed', 'passed'), 10);
  assert.equal(accepted.decision, 'accepted');
  assert.match(accepted.reason!, /4 passed, 0 failed of 4 runs/);
  assert.equal(policy(c, runs('failed'), 10).stop, false);
  assert.equal(policy(c, runs('failed', 'error'), 10).decision, 'flagged');
  assert.equal(policy(c, runs('passed', 'timeout', 'failed'), 10).stop, false);
  assert.equal(policy(c, runs('passed', 'timeout', 'failed', 'failed'), 10).decision, 'flagged');
});

test("the reference's example (p0 0.95, p1 0.80) accepts after 10 straight passes and flags at the third failure", () => {
  const policy = sprtRunPolicy({ p0: 0.95, p1: 0.8 });
  const c = testCase('a');
  const passes = (n: number) => runs(...Array<Status>(n).fill('passed'));
  assert.equal(policy(c, passes(9), 20).stop, false);
  assert.equal(policy(c, passes(10), 20).decision, 'accepted');
  // Pass, fail, pass, fail, fail: flagged at the third failure.
  assert.equal(policy(c, runs('passed', 'failed', 'passed', 'failed'), 20).stop, false);
  assert.equal(policy(c, runs('passed', 'failed', 'passed', 'failed', 'failed'), 20).decision, 'flagged');
});

test('a case still undecided at the maximum stops there and says so; skipped runs are not outcomes', () => {
  const policy = sprtRunPolicy();
  const mixed = runs('passed', 'failed', 'passed', 'passed', 'passed');
  const stopped = policy(testCase('a'), mixed, 5);
  assert.deepEqual([stopped.stop, stopped.decision], [true, 'undecided']);
  assert.match(stopped.reason!, /maximum of 5 runs/);
  assert.equal(policy(testCase('a'), runs('skipped'), 10).decision, 'skipped');
});

/** An inline suite whose agent passes every case but `failing`, counting the calls it gets. */
function countingSuite(ids: string[], calls: { n: number }): AgentestPlugin {
  return {
    name: 'test:counting',
    apply({ hooks }) {
      hooks.load.tapPromise('test:counting', async () => ({
        name: 'inline',
        needsAgent: false,
        cases: () => ids.map(testCase),
      }));
      hooks.execute.for('agent').tapPromise('test:counting', async (c, ctx) => {
        calls.n++;
        const status: Status = c.id === 'failing' ? 'failed' : 'passed';
        return { run: ctx.run, status, duration_ms: 1, assertions: [], metrics: {} };
      });
    },
  };
}

const plan = (extra: Partial<RunPlan>): RunPlan => ({
  input: { input: 'inline', cwd: process.cwd() },
  runs: 10,
  parallel: 2,
  failFast: false,
  env: {},
  verbose: false,
  ...extra,
});

test('on stable cases the sequential test makes at most half the calls of --runs 10, with the same verdicts', async () => {
  const ids = Array.from({ length: 12 }, (_, i) => `case-${i}`).concat('failing');
  const fixed = { n: 0 };
  const sequential = { n: 0 };
  const full = await createKernel({ plugins: [countingSuite(ids, fixed)] }).run(plan({}));
  const auto = await createKernel({ plugins: [countingSuite(ids, sequential)] }).run(
    plan({ runPolicy: sprtRunPolicy() }),
  );
  assert.equal(fixed.n, 130);
  assert.ok(sequential.n * 2 <= fixed.n, `${sequential.n} calls against ${fixed.n}`);
  assert.equal(sequential.n, 12 * 4 + 2);
  assert.deepEqual(
    [auto.summary.passed, auto.summary.failed, auto.errors.length],
    [full.summary.passed, full.summary.failed, full.errors.length],
  );
});
