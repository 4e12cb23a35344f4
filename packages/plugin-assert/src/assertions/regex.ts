import type { RE2JS } from 're2js';
import { defineAssertion, invalid, previewText } from '../definition.js';
import { searchableText } from '../json/stable-stringify.js';
import { compileRegex } from '../regex.js';

/**
 * The output, as text, matches `value` somewhere (unanchored). Patterns follow RE2, like Yao's Go
 * regexp: `(?i)` and other inline flags work, lookaround and backreferences are rejected, matching is
 * linear in the output's length. A JavaScript literal `/pattern/ims` is accepted too.
 */
export const regex = defineAssertion({
  type: 'regex',
  description: 'the output (as text) matches the RE2 pattern `value` (`(?i)` flags, or `/pattern/ims`)',
  validate(assertion) {
    if (typeof assertion.value !== 'string') return invalid(assertion, 'regex pattern must be a string in "value"');
    // An empty pattern matches every output: the assertion could never fail.
    if (assertion.value === '')
      return invalid(assertion, 'the pattern is empty, which every output matches: give the pattern to look for');
    const compiled = compileRegex(assertion.value);
    return typeof compiled === 'string' ? compiled : undefined;
  },
  check(assertion, { output }) {
    const pattern = assertion.value as string;
    // Compiled once by `validate` and cached.
    const pass = (compileRegex(pattern) as RE2JS).test(searchableText(output));
    const message = pass
      ? `output matches pattern '${previewText(pattern)}'`
      : `output does not match pattern '${previewText(pattern)}'`;
    return { pass, message, expected: pattern, actual: output };
  },
});
