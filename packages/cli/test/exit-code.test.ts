import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { SummaryEvent } from '@agentest/kernel';
import { outcomeExitCode } from '../src/exit-code.js';

const summary = (fields: Partial<SummaryEvent> = {}) =>
  ({ failed: 0, errors: 0, timeouts: 0, passed: 1, ...fields }) as SummaryEvent;

test('the CLI turns the kernel outcome into its exit code', () => {
  assert.equal(outcomeExitCode({ summary: summary(), errors: [] }), 0);
  for (const counted of ['failed', 'errors', 'timeouts'] as const)
    assert.equal(outcomeExitCode({ summary: summary({ [counted]: 1 }), errors: [] }), 1, counted);
  assert.equal(outcomeExitCode({ summary: summary(), errors: [new Error('disk full')] }), 3);
  assert.equal(outcomeExitCode({ summary: summary({ halted: 'budget' }), errors: [] }), 1, 'a halted run exits 1');
  assert.equal(
    outcomeExitCode({ summary: summary({ failed: 1, interrupted: true }), errors: [new Error('x')] }),
    130,
    'an interrupted run exits 130 whatever else happened',
  );
});

test('with thresholds the verdict alone decides, so the exit code and SHIP IT always agree', () => {
  const ship = { can_ship: true, issues: [] };
  const dontShip = { can_ship: false, issues: ['Pass Rate 50.0% < threshold 90.0%'] };
  assert.equal(outcomeExitCode({ summary: summary({ failed: 1, verdict: ship }), errors: [] }), 0);
  assert.equal(outcomeExitCode({ summary: summary({ verdict: dontShip }), errors: [] }), 1);
  assert.equal(outcomeExitCode({ summary: summary({ verdict: ship }), errors: [new Error('x')] }), 3);
});
