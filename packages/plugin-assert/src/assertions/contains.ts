import type { Assertion } from '@agentest/kernel';
import { defineAssertion, invalid, previewText } from '../definition.js';
import { searchableText } from '../json/stable-stringify.js';

/**
 * The output, as text, contains `value` as text. Non-string outputs and values are compared as
 * compact sorted-key JSON, so `42`, `true` and `{"a":1}` are all valid values.
 */
export const contains = defineAssertion({
  type: 'contains',
  description: 'the output (as text; objects as compact sorted-key JSON) contains `value`',
  validate: needsValue,
  check(assertion, { output }) {
    const needle = searchableText(assertion.value);
    const found = searchableText(output).includes(needle);
    const message = found
      ? `output contains '${previewText(needle)}'`
      : `output does not contain '${previewText(needle)}'`;
    return { pass: found, message, expected: assertion.value, actual: output };
  },
});

/** Shared with `not_contains`. */
export function needsValue(assertion: Assertion): string | undefined {
  // Yao turns a missing value into "" and so always passes (and a negated one always fails); an
  // assertion that cannot fail is almost always a typo, so it is reported instead.
  if (assertion.value === undefined || assertion.value === null) {
    return invalid(assertion, 'missing "value": give the text (or JSON value) to look for');
  }
  if (assertion.value === '')
    return invalid(assertion, '"value" is empty, which every output contains: give the text to look for');
  return undefined;
}
