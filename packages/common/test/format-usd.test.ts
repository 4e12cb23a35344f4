import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatUsd } from '../src/index.js';

test('a cost reads as what was spent: two decimals from a dollar, four below, two significant digits under $0.0001', () => {
  assert.equal(formatUsd(1.5), '$1.50');
  assert.equal(formatUsd(2.0143), '$2.01');
  assert.equal(formatUsd(0.0123), '$0.0123');
  assert.equal(formatUsd(0.0001), '$0.0001');
  // A budget of $0.00005 reached must not read "$0.0000 spent", nor a report's tiny cost.
  assert.equal(formatUsd(0.000012), '$0.000012');
  assert.equal(formatUsd(0.00000012), '$0.00000012');
  assert.equal(formatUsd(0), '$0.0000');
});
