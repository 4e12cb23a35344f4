import { defineAssertion, invalid } from '../definition.js';

const TYPE_NAMES = ['null', 'string', 'number', 'integer', 'boolean', 'array', 'object'] as const;

/**
 * The output's JSON type. `integer` (a number with no fractional part) is an addition to Yao's six
 * names. Text replies are not parsed first: a reply of `{"a":1}` as text is a `string`; use
 * `json_path` with path `$` to judge the JSON inside text.
 */
export const type = defineAssertion({
  type: 'type',
  description: `the output's JSON type is \`value\` (${TYPE_NAMES.join(', ')})`,
  validate(assertion) {
    const expected = assertion.value;
    if (typeof expected === 'string' && (TYPE_NAMES as readonly string[]).includes(expected)) return undefined;
    return invalid(
      assertion,
      `"value" must be one of ${TYPE_NAMES.join(', ')}, got ${JSON.stringify(expected) ?? 'nothing'}`,
    );
  },
  check(assertion, { output }) {
    const expected = assertion.value as string;
    const actual = jsonType(output);
    const pass = actual === expected || (expected === 'integer' && Number.isInteger(output));
    return pass
      ? { pass, message: `output is of type '${expected}'`, expected, actual }
      : { pass, message: `expected type '${expected}', got '${actual}'`, expected, actual };
  },
});

/** The JSON type name of a value; `undefined` (no output) is `null`, as it serialises. */
export function jsonType(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'bigint') return 'number';
  return typeof value;
}
