import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Execution, JudgeRecord } from '../src/index.js';
import { caseVariance } from '../src/variance.js';

const record = (passed: number, failed: number, errors = 0): JudgeRecord => ({
  use: 'agents:judge',
  prompt_hash: 'sha256:0',
  samples: passed + failed + errors,
  votes: { passed, failed, errors },
  agreement: '',
  duration_ms: 1,
  calls: passed + failed + errors,
  replies: [],
});

const run = (n: number, status: Execution['status'], judges: JudgeRecord[], own: JudgeRecord[] = []): Execution => ({
  run: n,
  status,
  duration_ms: 1,
  assertions: judges.map((judge) => ({ type: 'agent', pass: status === 'passed', judge })),
  metrics: {},
  ...(own.length ? { details: { judges: own } } : {}),
});

test('agent variance (runs) and judge variance (samples) are counted apart', () => {
  const variance = caseVariance([
    run(1, 'passed', [record(3, 0)]),
    run(2, 'failed', [record(1, 2)]),
    run(3, 'passed', [record(2, 1)], [record(1, 1)]),
  ])!;
  assert.deepEqual(variance.agent, { runs: 3, passed: 2, pass_rate: 2 / 3 });
  // 3 + 2 + 2 agreeing; the tie (1-1) has no majority.
  assert.deepEqual(variance.judge, {
    judgements: 4,
    samples: 11,
    agreeing: 7,
    agreement: 7 / 11,
    split: 2,
    no_verdict: 1,
  });
});

test('a judgement with an erred sample has no majority; an unjudged case has no variance', () => {
  assert.equal(caseVariance([run(1, 'error', [record(2, 0, 1)])])!.judge.agreeing, 0);
  assert.equal(caseVariance([run(1, 'passed', [])]), undefined);
});
