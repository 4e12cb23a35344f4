import { testAssertion } from './helpers.js';

testAssertion({
  type: 'contains',
  accept: [
    { output: 'The weather is sunny', value: 'sunny' },
    { output: '你好世界', value: '世界' },
    { output: { status: 'ok', n: 1 }, value: '"status":"ok"', description: 'objects are searched as compact JSON' },
    { output: { b: 1, a: 2 }, value: '{"a":2,"b":1}', description: 'keys are sorted' },
    { output: 'answer: 42', value: 42, description: 'a number value' },
    { output: { flag: true }, value: true, description: 'a boolean value' },
    { output: { x: { a: 1 } }, value: { a: 1 }, description: 'an object value' },
    { output: { html: '<b>' }, value: '<b>', description: 'no HTML escaping' },
  ],
  reject: [
    { output: 'The weather is sunny', value: 'rain', reason: "output does not contain 'rain'" },
    {
      output: { status: 'ok' },
      value: '"status": "ok"',
      reason: `output does not contain '"status": "ok"'`,
      description: 'compact JSON has no spaces',
    },
    { output: undefined, value: 'x', reason: "output does not contain 'x'" },
  ],
  unjudged: [
    {
      output: 'anything',
      value: undefined,
      reason: 'invalid contains assertion: missing "value": give the text (or JSON value) to look for',
    },
    { output: 'anything', value: null, reason: /missing "value"/ },
  ],
});

testAssertion({
  type: 'not_contains',
  accept: [
    { output: 'all good', value: 'error' },
    { output: { a: 1 }, value: 2 },
  ],
  reject: [{ output: 'an error happened', value: 'error', reason: "output should not contain 'error'" }],
  unjudged: [
    {
      output: 'x',
      value: undefined,
      reason: 'invalid not_contains assertion: missing "value": give the text (or JSON value) to look for',
    },
  ],
});
