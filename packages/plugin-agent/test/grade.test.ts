import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gradeEvaluation } from '../src/index.js';

test('gradeEvaluation applies the kit rules in order: FAIL before PARTIAL before PASS', () => {
  assert.equal(gradeEvaluation({ error: 'boom', intent_matched: false }).grade, 'FAIL');
  assert.equal(gradeEvaluation({ error: 'boom' }).error, 'boom');
  assert.equal(gradeEvaluation({ error: new Error('typed') }).error, 'typed');
  assert.equal(gradeEvaluation({ error: { status: 500 } }).error, '{"status":500}');
  assert.deepEqual(gradeEvaluation({ structure_ok: false }), { status: 'failed', grade: 'FAIL', error: 'structure check failed', metrics: {}, details: {} });
  assert.equal(gradeEvaluation({ structure_ok: false, failure_details: ['a', 'b'] }).error, 'structure check failed: a; b');
  assert.equal(gradeEvaluation({ intent_matched: false }).grade, 'PARTIAL');
  assert.equal(gradeEvaluation({ intent_matched: false }).status, 'passed');
  assert.equal(gradeEvaluation({ keyword_hit_rate: 0.49 }).grade, 'PARTIAL');
  assert.equal(gradeEvaluation({ keyword_hit_rate: 0.5 }).grade, 'PASS');
  assert.equal(gradeEvaluation({ keyword_hit_rate: null }).grade, 'PASS');
  // Only an explicit false counts: adapters that do not measure a dimension are not penalised.
  assert.equal(gradeEvaluation({}).grade, 'PASS');
  assert.equal(gradeEvaluation({ error: '' }).grade, 'PASS');
});

test('gradeEvaluation metrics: rates, score and latency (the evaluation\'s, else the measured one)', () => {
  assert.deepEqual(gradeEvaluation({ keyword_hit_rate: 0.75, intent_matched: true, quality_score: 5, elapsed_ms: 120 }, { latencyMs: 99 }).metrics, {
    keyword_hit_rate: 0.75, intent_match_rate: 1, quality_score: 5, latency_ms: 120,
  });
  assert.deepEqual(gradeEvaluation({ keyword_hit_rate: null, intent_matched: false }, { latencyMs: 99 }).metrics, { intent_match_rate: 0, latency_ms: 99 });
  assert.deepEqual(gradeEvaluation({ keyword_hits: ['a'], failure_details: [] }).details, { keyword_hits: ['a'] });
});
