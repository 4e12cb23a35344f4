import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatUsd } from '../src/usage.js';

test('a report reads a tiny cost as spent, not as $0.0000', () => {
  assert.equal(formatUsd(1.5), '$1.50');
  assert.equal(formatUsd(0.0123), '$0.0123');
  assert.equal(formatUsd(0.000012), '$0.000012');
  assert.equal(formatUsd(0), '$0.0000');
});
