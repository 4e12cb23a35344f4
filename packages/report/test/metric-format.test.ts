import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatBound, formatMetric, isMaxMetric, meetsThreshold, metricRows, thresholdSign } from '../src/index.js';

test('a metric is read by its name: _rate a percentage, _ms whole milliseconds, anything else up to four decimals', () => {
  assert.equal(formatMetric('keyword_hit_rate', 0.72), '72.0%');
  assert.equal(formatMetric('pass_rate', 1), '100.0%');
  assert.equal(formatMetric('latency_ms', 1234.4), '1234ms');
  assert.equal(formatMetric('avg_latency_ms', 812.5), '813ms');
  assert.equal(formatMetric('quality_score', 4.123456), '4.1235');
  assert.equal(formatMetric('quality_score', 4.2), '4.2');
  assert.equal(formatMetric('quality_score', 4.2, { decimals: 2 }), '4.20');
  // The decimals option is for plain numbers only: a rate and a latency read the same everywhere.
  assert.equal(formatMetric('latency_ms', 1234.4, { decimals: 2 }), '1234ms');
});

test('a _ms threshold is a maximum, every other threshold a minimum, met exactly at its value', () => {
  assert.equal(isMaxMetric('latency_ms'), true);
  assert.equal(isMaxMetric('avg_latency_ms'), true);
  assert.equal(isMaxMetric('pass_rate'), false);
  assert.equal(isMaxMetric('ms_count'), false);
  assert.equal(thresholdSign('latency_ms'), '≤');
  assert.equal(thresholdSign('pass_rate'), '≥');
  assert.equal(formatBound('latency_ms', 500), '≤500ms');
  assert.equal(formatBound('keyword_hit_rate', 0.7), '≥70.0%');
  assert.equal(meetsThreshold('latency_ms', 500, 500), true);
  assert.equal(meetsThreshold('latency_ms', 501, 500), false);
  assert.equal(meetsThreshold('pass_rate', 0.9, 0.9), true);
  assert.equal(meetsThreshold('pass_rate', 0.89, 0.9), false);
});

test('metric rows list measured metrics, then thresholds, reading the kit names of the averages', () => {
  const rows = metricRows({
    metrics: { pass_rate: 0.5, latency_ms: 900 },
    thresholds: { pass_rate: 0.8, avg_latency_ms: 1000, intent_match_rate: 0.7 },
  });
  assert.deepEqual(rows, [
    { name: 'pass_rate', value: 0.5, limit: 0.8, isMax: false, met: false },
    { name: 'latency_ms', value: 900, isMax: true },
    { name: 'avg_latency_ms', value: 900, limit: 1000, isMax: true, met: true },
    { name: 'intent_match_rate', limit: 0.7, isMax: false },
  ]);
  // A name every object inherits is never a metric.
  assert.deepEqual(metricRows({ thresholds: { constructor: 1 } }), [{ name: 'constructor', limit: 1, isMax: false }]);
});
