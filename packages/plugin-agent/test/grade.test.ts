import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gradeEvaluation } from '../src/index.js';

test('gradeEvaluation applies the kit rules in order: FAIL before PARTIAL before PASS', () => {
  assert.equal(gradeEvaluation({ error: 'boom', intent_matched: false }).grade, 'FAIL');
  assert.equal(gradeEvaluation({ error: 'boom' }).error, 'boom');
  assert.equal(gradeEvaluation({ error: new Error('typed') }).error, 'typed');
  assert.equal(gradeEvaluation({ error: { status: 500 } }).error, '{"status":500}');
  assert.deepEqual(gradeEvaluation({ structure_ok: false }), {
    status: 'failed',
    grade: 'FAIL',
    error: 'structure check failed',
    metrics: {},
    details: {},
  });
  assert.equal(
    gradeEvaluation({ structure_ok: false, failure_details: ['a', 'b'] }).error,
    'structure check failed: a; b',
  );
  assert.equal(gradeEvaluation({ intent_matched: false }).grade, 'PARTIAL');
  assert.equal(gradeEvaluation({ intent_matched: false }).status, 'passed');
  assert.equal(gradeEvaluation({ keyword_hit_rate: 0.49 }).grade, 'PARTIAL');
  assert.equal(gradeEvaluation({ keyword_hit_rate: 0.5 }).grade, 'PASS');
  assert.equal(gradeEvaluation({ keyword_hit_rate: null }).grade, 'PASS');
  // Only an explicit false counts: adapters that do not measure a dimension are not penalised.
  assert.equal(gradeEvaluation({}).grade, 'PASS');
});

test('gradeEvaluation: any present error is an error, and only boolean true is a good structure', () => {
  assert.deepEqual(gradeEvaluation({ error: '', structure_ok: true }), {
    status: 'failed',
    grade: 'FAIL',
    error: 'the adapter reported an error with an empty message',
    metrics: {},
    details: {},
  });
  assert.equal(gradeEvaluation({ error: false }).error, 'the adapter reported error: false');
  assert.equal(gradeEvaluation({ error: 0 }).grade, 'FAIL');
  assert.equal(gradeEvaluation({ error: null, structure_ok: true }).grade, 'PASS');
  assert.equal(gradeEvaluation({ error: undefined }).grade, 'PASS');
  assert.deepEqual(
    gradeEvaluation({ structure_ok: 'false' as never }).error,
    `the evaluation's structure_ok is "false"; it must be true or false`,
  );
  assert.equal(gradeEvaluation({ structure_ok: 1 as never }).grade, 'FAIL');
  assert.equal(gradeEvaluation({ structure_ok: null as never }).grade, 'FAIL');
  assert.equal(gradeEvaluation({ intent_matched: 'true' as never }).grade, 'FAIL');
  assert.equal(gradeEvaluation({ keyword_hit_rate: '0.9' as never }).grade, 'FAIL');
  assert.equal(gradeEvaluation({ keyword_hit_rate: 1.5 }).grade, 'FAIL');
});

test("gradeEvaluation metrics: rates, score and latency (the evaluation's, else the measured one)", () => {
  assert.deepEqual(
    gradeEvaluation(
      { keyword_hit_rate: 0.75, intent_matched: true, quality_score: 5, elapsed_ms: 120 },
      { latencyMs: 99 },
    ).metrics,
    {
      keyword_hit_rate: 0.75,
      intent_match_rate: 1,
      quality_score: 5,
      latency_ms: 120,
    },
  );
  assert.deepEqual(gradeEvaluation({ keyword_hit_rate: null, intent_matched: false }, { latencyMs: 99 }).metrics, {
    intent_match_rate: 0,
    latency_ms: 99,
  });
  assert.deepEqual(gradeEvaluation({ keyword_hits: ['a'], failure_details: [] }).details, { keyword_hits: ['a'] });
});
