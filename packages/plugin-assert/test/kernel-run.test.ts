import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Assertion } from '@agentest/kernel';
import { agentExecutor, inlineCases, runKernel, testCase } from '@agentest/test-utils';
import assertPlugin from '../src/index.js';

/** A suite of cases whose agent replies with a fixed output, judged by this plugin's assertion types. */
function harness(cases: { id: string; output: unknown; assert: Assertion[] }[]) {
  const outputs = new Map(cases.map((c) => [c.id, c.output]));
  const testCases = cases.map((c, i) =>
    testCase(c.id, { assert: c.assert, source: { file: 'inline.jsonl', line: i + 1 } }),
  );
  const plugins = [
    assertPlugin(),
    inlineCases(testCases, { needsAgent: false }),
    agentExecutor(async (c) => ({ output: outputs.get(c.id) })),
  ];
  return { run: () => runKernel(plugins) };
}

test('negate, message and the "; " joining come from the kernel, applied to these types', async () => {
  const { run } = harness([
    { id: 'negated-pass', output: 'all fine', assert: [{ type: 'contains', value: 'error', negate: true }] },
    { id: 'negated-fail', output: 'an error', assert: [{ type: 'contains', value: 'error', negate: true }] },
    {
      id: 'custom-message',
      output: { a: 1 },
      assert: [{ type: 'json_path', path: '$.a', value: 2, message: 'a must be 2' }],
    },
    {
      id: 'joined',
      output: 'abc',
      assert: [
        { type: 'regex', value: '^x' },
        { type: 'type', value: 'object' },
        { type: 'contains', value: 'b' },
      ],
    },
    { id: 'empty-type', output: { k: 'v' }, assert: [{ type: '', value: { k: 'v' } }] },
  ]);
  const { outcome, results } = await run();
  const byId = Object.fromEntries(results.map((r) => [r.id, r]));
  assert.equal(byId['negated-pass']!.status, 'passed');
  assert.equal(byId['negated-pass']!.assertions[0]!.message, 'negated assertion passed');
  assert.equal(byId['negated-fail']!.status, 'failed');
  assert.equal(byId['negated-fail']!.error, "negated: output contains 'error'");
  assert.equal(byId['custom-message']!.error, 'a must be 2');
  assert.equal(byId['joined']!.error, "output does not match pattern '^x'; expected type 'object', got 'string'");
  assert.equal(byId['empty-type']!.status, 'passed', 'an empty type means equals');
  assert.equal(outcome.summary.passed, 2);
  assert.equal(outcome.summary.failed, 3);
});

test('every built-in type is known to the kernel before the run', async () => {
  const { run } = harness([{ id: 'x', output: 'x', assert: [{ type: 'no_such_type' }] }]);
  await assert.rejects(run(), (error: Error & { code?: string }) => {
    assert.equal(error.code, 'NO_ASSERTION');
    for (const type of [
      'contains',
      'equals',
      'json_path',
      'not_contains',
      'regex',
      'tool_called',
      'tool_result',
      'type',
    ])
      assert.match(error.message, new RegExp(`\\b${type}\\b`));
    // The empty type (an alias of equals) is accepted but not listed: the list starts with a name.
    assert.match(error.message, /\(known: contains, equals, json_path,/);
    return true;
  });
});

test('options are rejected with a clear error', () => {
  const plugin = assertPlugin({ strict: true } as never);
  assert.throws(() => plugin.apply({ hooks: {} as never, reportError: () => {} }), /agentest:assert: takes no options/);
});

test("a case's expected (no assert) fails with Yao's 'output does not match expected', then the values", async () => {
  const expected = { keywords: ['AI'] };
  const plugins = [
    assertPlugin(),
    inlineCases(
      [
        testCase('implicit', { expected, assert: [{ type: 'equals', value: expected }] }),
        testCase('explicit', { assert: [{ type: 'equals', value: expected }] }),
      ],
      { needsAgent: false },
    ),
    agentExecutor(async () => ({ output: { keywords: ['ML'] } })),
  ];
  const { results } = await runKernel(plugins);
  const byId = Object.fromEntries(results.map((r) => [r.id, r]));
  assert.equal(
    byId['implicit']!.error,
    'output does not match expected: expected {"keywords":["AI"]}, got {"keywords":["ML"]}',
  );
  assert.equal(byId['explicit']!.error, 'expected {"keywords":["AI"]}, got {"keywords":["ML"]}');
});
