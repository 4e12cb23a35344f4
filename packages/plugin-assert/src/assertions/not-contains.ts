import { defineAssertion, previewText } from '../definition.js';
import { searchOutput } from './contains.js';

/** The inverse of `contains`, with its own messages (as Yao words them). */
export const notContains = defineAssertion({
  type: 'not_contains',
  description: 'the output (as text; objects as compact sorted-key JSON) does not contain `value`',
  check(assertion, { output }) {
    const search = searchOutput(assertion, output);
    if ('pass' in search) return search;
    const { found, needle } = search;
    const message = found ? `output should not contain '${previewText(needle)}'` : `output does not contain '${previewText(needle)}'`;
    return { pass: !found, message, expected: assertion.value, actual: output };
  },
});
