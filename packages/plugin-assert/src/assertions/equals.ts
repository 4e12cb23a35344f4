import { exactText } from '@agentest/common';
import { defineAssertion, preview } from '../definition.js';
import { deepEqual } from '../json/deep-equal.js';
import { extractJson } from '../json/extract-json.js';

/**
 * Structural equality (key order never matters, `1` equals `1.0`). When the agent replied with text
 * and the expected value is an object or array, the JSON in the text is compared: a fenced block, bare
 * JSON, YAML, or LLM-broken JSON (see `extractJson`). Yao compares serialised strings instead, which
 * makes multi-key objects flaky and never matches a text reply against an object. Integers beyond
 * 2^53 compare exactly when both sides were parsed from text (the case file and a text reply); a
 * number that arrived already parsed (an object reply) is a double and compares as one.
 */
export const equals = defineAssertion({
  type: 'equals',
  description: 'the output equals `value` structurally (JSON is extracted from text replies)',
  check(assertion, { output, testCase }) {
    const expected = assertion.value;
    const actual =
      typeof output === 'string' && expected !== null && typeof expected === 'object'
        ? (extractJson(output) ?? output)
        : output;
    // A big integer written as the whole expected value keeps its source text on the assertion.
    const expectedText = exactText(assertion, 'value');
    if (deepEqual(actual, expected, undefined, expectedText))
      return { pass: true, message: 'values are equal', expected, actual };
    // A case's `expected` (no `assert`) fails with Yao's words first, then the values.
    const lead =
      testCase?.expected !== undefined && testCase.expected === expected ? 'output does not match expected: ' : '';
    return {
      pass: false,
      message: `${lead}expected ${expectedText ?? preview(expected)}, got ${preview(actual)}`,
      expected,
      actual,
    };
  },
});
