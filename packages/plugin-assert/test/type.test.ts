import { testAssertion } from './helpers.js';

testAssertion({
  type: 'type',
  accept: [
    { output: null, value: 'null' },
    { output: undefined, value: 'null', description: 'no output is null' },
    { output: 'x', value: 'string' },
    { output: 1.5, value: 'number' },
    { output: 3, value: 'integer' },
    { output: 3, value: 'number' },
    { output: false, value: 'boolean' },
    { output: [], value: 'array' },
    { output: {}, value: 'object' },
  ],
  reject: [
    {
      output: '{"a":1}',
      value: 'object',
      reason: "expected type 'object', got 'string'",
      description: 'text is not parsed',
    },
    { output: 1.5, value: 'integer', reason: "expected type 'integer', got 'number'" },
    { output: [], value: 'object', reason: "expected type 'object', got 'array'" },
  ],
  unjudged: [
    { output: 1, reason: /got nothing$/ },
    {
      output: 1,
      value: 'float',
      reason:
        'invalid type assertion: "value" must be one of null, string, number, integer, boolean, array, object, got "float"',
    },
  ],
});
