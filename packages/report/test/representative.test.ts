import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Execution, Status } from '@agentest/kernel';
import { gradeOf, representative, scriptSuiteInfo, suiteKindOf } from '../src/index.js';

const run = (n: number, status: Status, details?: Record<string, unknown>): Execution => ({
  run: n,
  status,
  duration_ms: 1,
  assertions: [],
  metrics: {},
  ...(details ? { details } : {}),
});

test('the run that represents a case is its first run with the case status, else its first run', () => {
  const runs = [run(1, 'passed'), run(2, 'failed'), run(3, 'failed')];
  assert.equal(representative({ status: 'failed', runs })?.run, 2);
  assert.equal(representative({ status: 'passed', runs })?.run, 1);
  assert.equal(representative({ status: 'error', runs })?.run, 1);
  assert.equal(representative({ status: 'skipped', runs: [] }), undefined);
});

test('a case grade comes from its representative run, else from any run that has one', () => {
  assert.equal(
    gradeOf({ status: 'failed', runs: [run(1, 'passed', { grade: 'PASS' }), run(2, 'failed', { grade: 'FAIL' })] }),
    'FAIL',
  );
  assert.equal(
    gradeOf({ status: 'passed', runs: [run(1, 'passed'), run(2, 'passed', { grade: 'PARTIAL' })] }),
    'PARTIAL',
  );
  assert.equal(gradeOf({ status: 'passed', runs: [run(1, 'passed', { grade: 3 })] }), undefined);
});

test('the suite kind comes from the suite mode when it names one, else from the kernel kind', () => {
  assert.equal(suiteKindOf({ kind: 'agent', meta: { mode: 'kit' } }), 'kit');
  assert.equal(suiteKindOf({ kind: 'agent', meta: { mode: 'dynamic' } }), 'dynamic');
  assert.equal(suiteKindOf({ kind: 'script', meta: { mode: 'script' } }), 'script');
  assert.equal(suiteKindOf({ kind: 'script' }), 'script');
  assert.equal(suiteKindOf({ kind: 'agent', meta: { mode: 'file' } }), 'agent');
  assert.equal(suiteKindOf(undefined), 'agent');
  assert.deepEqual(scriptSuiteInfo({ suite: 'scripts.a.b', meta: { test_path: 'a/b_test.ts' } }), {
    script: 'scripts.a.b',
    script_path: 'a/b_test.ts',
  });
  assert.deepEqual(scriptSuiteInfo({ suite: 'x', meta: { script: 'scripts.y', script_path: 3 } }), {
    script: 'scripts.y',
  });
});
