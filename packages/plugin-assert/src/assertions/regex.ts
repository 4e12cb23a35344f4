import { defineAssertion, malformed, previewText } from '../definition.js';
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
  check(assertion, { output }) {
    const pattern = assertion.value;
    if (typeof pattern !== 'string') return malformed(assertion, 'regex pattern must be a string in "value"');
    const compiled = compileRegex(pattern);
    if (typeof compiled === 'string') return { pass: false, message: compiled, expected: pattern };
    const pass = compiled.test(searchableText(output));
    const message = pass ? `output matches pattern '${previewText(pattern)}'` : `output does not match pattern '${previewText(pattern)}'`;
    return { pass, message, expected: pattern, actual: output };
  },
});
