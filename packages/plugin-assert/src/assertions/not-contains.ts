import { defineAssertion, previewText } from '../definition.js';
import { searchableText } from '../json/stable-stringify.js';
import { needsValue } from './contains.js';

/** The inverse of `contains`, with its own messages (as Yao words them). */
export const notContains = defineAssertion({
  type: 'not_contains',
  description: 'the output (as text; objects as compact sorted-key JSON) does not contain `value`',
  validate: needsValue,
  check(assertion, { output }) {
    const needle = searchableText(assertion.value);
    const found = searchableText(output).includes(needle);
    const message = found
      ? `output should not contain '${previewText(needle)}'`
      : `output does not contain '${previewText(needle)}'`;
    return { pass: !found, message, expected: assertion.value, actual: output };
  },
});
