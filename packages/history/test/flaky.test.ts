import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Status } from '@agentest/kernel';
import { wilsonInterval } from '@agentest/compare';
import { caseHistory, outcomeStrip } from '../src/index.js';

const statuses = (text: string): Status[] =>
  [...text].map((c) => ({ P: 'passed', F: 'failed', E: 'error', T: 'timeout', S: 'skipped' })[c] as Status);

test('a case that only passes, or only fails, is not flaky', () => {
  assert.deepEqual(caseHistory(statuses('PPPP')), { recent: statuses('PPPP') });
  assert.equal(caseHistory(statuses('FFEF')).flaky, undefined, 'failed, error and timeout are all "not passed"');
  assert.equal(caseHistory(statuses('P')).flaky, undefined);
});

test('flips between consecutive outcomes give the flip rate and its Wilson interval', () => {
  // P F P P F: flips at 1, 2 and 4 of 4 transitions.
  const { flaky } = caseHistory(statuses('PFPPF'));
  assert.deepEqual([flaky!.flips, flaky!.transitions, flaky!.flip_rate], [3, 4, 0.75]);
  const { lower, upper } = wilsonInterval(3, 4);
  assert.deepEqual(flaky!.flip_rate_ci, [Math.round(lower * 1000) / 1000, Math.round(upper * 1000) / 1000]);
  // One flip in 19 chances is flagged, with a wide interval that starts near 0.
  const rare = caseHistory(statuses('PPPPPPPPPPPPPPPPPPPF')).flaky!;
  assert.deepEqual([rare.flips, rare.transitions], [1, 19]);
  assert.ok(rare.flip_rate_ci[0] < 0.01 && rare.flip_rate_ci[1] > 0.2);
});

test('skipped runs are not outcomes, and only the latest window counts', () => {
  assert.equal(caseHistory(statuses('PSP')).flaky, undefined);
  assert.deepEqual(caseHistory(statuses('PSP')).recent, statuses('PP'));
  // The flip is older than the window of 3.
  assert.equal(caseHistory(statuses('FPPP'), 3).flaky, undefined);
  assert.equal(caseHistory(statuses('FPPP'), 4).flaky?.flips, 1);
});

test('the outcome strip marks each run', () => {
  assert.equal(outcomeStrip(statuses('PFETS')), '✓✗ET-');
});
