/**
 * An assertion type: `{ "type": "max_words", "value": 5 }` passes when the output has at most that
 * many words. `validate` says what is wrong with how an assertion is written; the kernel calls it for
 * every case before any agent runs, so a typo fails the run at once (ASSERTION_INVALID, exit 2).
 * `check` judges one output; `negate` and `message` are applied by the kernel, as for every type.
 *
 * In the config:  plugins: [maxWords]
 */
import { defineAssertion } from '@agentest/test';

export default defineAssertion({
  type: 'max_words',
  description: 'the output has at most `value` words',
  validate(assertion) {
    const value = assertion.value;
    return typeof value === 'number' && Number.isInteger(value) && value >= 0
      ? undefined
      : `max_words needs a whole number "value" of at least 0, got ${JSON.stringify(value)}`;
  },
  check(assertion, { output }) {
    if (typeof output !== 'string')
      return { pass: false, error: `max_words reads text; the output is ${typeof output}` };
    const words = output.split(/\s+/).filter(Boolean).length;
    const limit = assertion.value as number;
    return {
      pass: words <= limit,
      message: `${words} words, more than ${limit}`,
      expected: `at most ${limit} words`,
      actual: `${words} words`,
      metrics: { words },
    };
  },
});
