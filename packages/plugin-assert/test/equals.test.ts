import { testAssertion } from './helpers.js';

testAssertion({
  type: 'equals',
  accept: [
    { output: 'hello', value: 'hello' },
    { output: { a: 1, b: 2 }, value: { b: 2, a: 1 }, description: 'key order never matters' },
    { output: { n: 1 }, value: { n: 1.0 }, description: '1 equals 1.0' },
    { output: [1, { x: [true, null] }], value: [1, { x: [true, null] }] },
    { output: { a: 1, gone: undefined }, value: { a: 1 }, description: 'an undefined property counts as absent' },
    { output: undefined, value: null, description: 'no output equals null' },
    {
      output: '```json\n{"need_search": false}\n```',
      value: { need_search: false },
      description: 'fenced JSON in a text reply',
    },
    {
      output: 'Here you go:\n```\n{"a": [1, 2]}\n```\nAnything else?',
      value: { a: [1, 2] },
      description: 'unlabelled fence',
    },
    { output: '{"b": 2, "a": 1}', value: { a: 1, b: 2 }, description: 'bare JSON text' },
    {
      output: 'need_search: true\nkeywords: [a, b]',
      value: { need_search: true, keywords: ['a', 'b'] },
      description: 'YAML text',
    },
    {
      output: "{need_search: false, 'q': 'x',}",
      value: { need_search: false, q: 'x' },
      description: 'LLM-broken JSON is repaired',
    },
    { output: 'Sure! {"ok": true} Hope that helps.', value: { ok: true }, description: 'JSON inside prose' },
    { output: '[1, 2, 3]', value: [1, 2, 3], description: 'a JSON array as text' },
  ],
  reject: [
    { output: 'hello', value: 'Hello', reason: 'expected "Hello", got "hello"' },
    { output: [1, 2], value: [2, 1], reason: 'expected [2,1], got [1,2]', description: 'array order matters' },
    { output: { a: 1 }, value: { a: 1, b: 2 }, reason: 'expected {"a":1,"b":2}, got {"a":1}' },
    { output: '42', value: 42, reason: 'expected 42, got "42"', description: 'a string is not a number' },
    { output: 'no json here', value: { a: 1 }, reason: 'expected {"a":1}, got "no json here"' },
    {
      output: '{"a": 2}',
      value: { a: 1 },
      reason: 'expected {"a":1}, got {"a":2}',
      description: 'the message shows the extracted value',
    },
    {
      output: 'x'.repeat(1000),
      value: 'y',
      reason: /^expected "y", got "x{299}… \(1002 chars\)$/,
      description: 'long values are cut in messages',
    },
  ],
});
