import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Assertion } from '@agentest/kernel';
import { validateAssertion } from '../src/index.js';

/** [assertion, the problem reported before any run, or undefined when well formed]. */
const rows: [Assertion, string | RegExp | undefined][] = [
  [{ type: 'contains', value: 'x' }, undefined],
  [{ type: 'contains' }, 'invalid contains assertion: missing "value": give the text (or JSON value) to look for'],
  [{ type: 'not_contains', value: null }, /missing "value"/],
  // Every output contains "" and matches an empty pattern: such an assertion cannot fail (negated, cannot pass).
  [
    { type: 'contains', value: '' },
    'invalid contains assertion: "value" is empty, which every output contains: give the text to look for',
  ],
  [{ type: 'not_contains', value: '' }, /"value" is empty, which every output contains/],
  [
    { type: 'regex', value: '' },
    'invalid regex assertion: the pattern is empty, which every output matches: give the pattern to look for',
  ],
  [{ type: 'regex', value: '(?i)ok' }, undefined],
  [{ type: 'regex', value: '[a-z' }, /^invalid regex pattern: missing closing \]/],
  [{ type: 'regex', value: ['x'] }, 'invalid regex assertion: regex pattern must be a string in "value"'],
  [{ type: 'json_path', path: '$.a[0].b', value: 1 }, undefined],
  [{ type: 'json_path', value: 1 }, /missing "path"/],
  [{ type: 'json_path', path: "$['a", value: 1 }, /an unterminated ' quote/],
  [{ type: 'json_path', path: '$.a]', value: 1 }, /a "\]" has no matching "\["/],
  [{ type: 'json_path', path: '$.a.', value: 1 }, /the path ends with "\."/],
  [{ type: 'json_path', path: '$.items[(@.length-1)]' }, /script expressions .* are disabled/],
  [{ type: 'type', value: 'integer' }, undefined],
  [{ type: 'type', value: 'Object' }, /"value" must be one of null, string/],
  [{ type: 'tool_called' }, undefined],
  [{ type: 'tool_called', value: [] }, /empty list/],
  [{ type: 'tool_called', value: ['a', { name: '' }] }, /"value" must be a tool name/],
  [{ type: 'tool_result', value: { tool: 'x', result: { a: 1 } } }, undefined],
  [{ type: 'tool_result', value: { result: 1 } }, /"value" must be \{"tool"/],
  [{ type: 'equals' }, undefined],
  [{ type: 'my_custom_type' }, undefined],
];

for (const [assertion, problem] of rows) {
  test(`validateAssertion(${JSON.stringify(assertion)})`, () => {
    const reported = validateAssertion(assertion);
    if (problem === undefined) assert.equal(reported, undefined);
    else if (typeof problem === 'string') assert.equal(reported, problem);
    else assert.match(reported ?? '', problem);
  });
}
