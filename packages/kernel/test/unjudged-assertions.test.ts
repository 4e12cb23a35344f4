/**
 * "Could not judge" is not "judged false": an assertion that could not be evaluated makes its run an
 * `error` with the reason, whatever `negate` says. One rule in the kernel, for every assertion type.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createKernel, type AgentestPlugin, type AssertionOutcome, type CaseResult } from '../src/index.js';
import { collector, inlinePlugins, plan, testCase } from './helpers.js';

/** Assertion types whose taps cannot judge, each in its own way. */
const unjudging: AgentestPlugin = {
  name: 'test:unjudging',
  apply({ hooks }) {
    hooks.assert.for('says_error').tap('test:unjudging', () => ({ pass: false, error: 'output is not JSON' }));
    hooks.assert.for('says_error_passing').tap('test:unjudging', () => ({ pass: true, error: 'cannot read it' }));
    hooks.assert.for('throws').tap('test:unjudging', () => {
      throw new Error('boom');
    });
    hooks.assert.for('rejects').tapPromise('test:unjudging', async () => {
      throw new Error('async boom');
    });
    hooks.assert.for('junk').tap('test:unjudging', () => ({ pass: 'yes' }) as unknown as AssertionOutcome);
    hooks.assert.for('judges_false').tap('test:unjudging', () => ({ pass: false, message: 'judged false' }));
  },
};

async function resultsOf(asserts: { type: string; negate?: boolean; message?: string }[][]) {
  const cases = asserts.map((list, i) => testCase(`c${i}`, { assert: list }));
  const c = collector();
  const outcome = await createKernel({ plugins: [...inlinePlugins(cases), unjudging, c.plugin] }).run(plan());
  return { outcome, results: c.events.filter((e) => e.type === 'result') as unknown as CaseResult[] };
}

test('an assertion that could not be evaluated is an error, negated or not', async () => {
  const types = ['says_error', 'says_error_passing', 'throws', 'rejects', 'junk'];
  const { outcome, results } = await resultsOf(
    types.flatMap((type) => [[{ type }], [{ type, negate: true, message: 'custom words' }]]),
  );
  for (const result of results) {
    const [assertion] = result.assertions;
    assert.equal(result.status, 'error', `${assertion!.type}${assertion!.negate ? ' (negated)' : ''}: ${result.error}`);
    assert.equal(assertion!.pass, false);
    assert.equal(typeof assertion!.error, 'string');
    assert.match(result.error!, new RegExp(`^${assertion!.type} assertion could not be evaluated: `));
  }
  assert.match(results[0]!.error!, /could not be evaluated: output is not JSON$/);
  assert.match(
    results[4]!.error!,
    /could not be evaluated: plugin "test:unjudging" failed in hook "assert:throws": boom$/,
  );
  assert.match(
    results[6]!.error!,
    /could not be evaluated: plugin "test:unjudging" failed in hook "assert:rejects": async boom$/,
  );
  assert.match(results[8]!.error!, /answered \{"pass":"yes"\} instead of \{pass: boolean\}/);
  assert.equal(outcome.summary.errors, types.length * 2);
  assert.equal(outcome.summary.passed, 0);
});

test('an error among failures makes the run an error; the failures stay in its text', async () => {
  const { results } = await resultsOf([
    [{ type: 'judges_false' }, { type: 'says_error', negate: true }],
    [
      { type: 'judges_false', negate: true },
      { type: 'contains', value: 'c1' },
    ],
  ]);
  assert.equal(results[0]!.status, 'error');
  assert.equal(results[0]!.error, 'judged false; says_error assertion could not be evaluated: output is not JSON');
  assert.equal(results[1]!.status, 'passed', 'a negated verdict still inverts');
});
