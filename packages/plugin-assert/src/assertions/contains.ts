import type { Assertion, AssertionOutcome } from '@agentest/kernel';
import { defineAssertion, malformed, previewText } from '../definition.js';
import { searchableText } from '../json/stable-stringify.js';

/**
 * The output, as text, contains `value` as text. Non-string outputs and values are compared as
 * compact sorted-key JSON, so `42`, `true` and `{"a":1}` are all valid values.
 */
export const contains = defineAssertion({
  type: 'contains',
  description: 'the output (as text; objects as compact sorted-key JSON) contains `value`',
  check(assertion, { output }) {
    const search = searchOutput(assertion, output);
    if ('pass' in search) return search;
    const { found, needle } = search;
    const message = found ? `output contains '${previewText(needle)}'` : `output does not contain '${previewText(needle)}'`;
    return { pass: found, message, expected: assertion.value, actual: output };
  },
});

/** Looks for `value` in the output; shared with `not_contains`, which phrases its own messages. */
export function searchOutput(assertion: Assertion, output: unknown): { found: boolean; needle: string } | AssertionOutcome {
  // Yao turns a missing value into "" and so always passes (and a negated one always fails); an
  // assertion that cannot fail is almost always a typo, so it is reported instead.
  if (assertion.value === undefined || assertion.value === null) {
    return malformed(assertion, 'missing "value": give the text (or JSON value) to look for');
  }
  const needle = searchableText(assertion.value);
  return { found: searchableText(output).includes(needle), needle };
}
