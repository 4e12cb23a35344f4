import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatCost } from '../src/index.js';

test('a cost reads as what was spent: four decimals under a dollar, two significant digits under $0.0001', () => {
  assert.equal(formatCost(2.0143), '$2.01');
  assert.equal(formatCost(0.0123), '$0.0123');
  assert.equal(formatCost(0.0001), '$0.0001');
  // A budget of $0.00005 reached must not read "$0.0000 spent".
  assert.equal(formatCost(0.000012), '$0.000012');
  assert.equal(formatCost(0.00000012), '$0.00000012');
  assert.equal(formatCost(0), '$0.0000');
});
