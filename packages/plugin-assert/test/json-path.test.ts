import { testAssertion } from './helpers.js';

const doc = {
  need_search: false,
  confidence: 0.99,
  user: { name: 'Ada', tags: ['a', 'b'] },
  items: [
    { name: 'x', price: 5 },
    { name: 'y', price: 12 },
  ],
  'key.dot': 1,
  nothing: null,
};

testAssertion({
  type: 'json_path',
  accept: [
    { output: doc, value: false, with: { path: '$.need_search' } },
    { output: doc, value: 0.99, with: { path: 'confidence' }, description: 'a path without $' },
    { output: doc, value: 'Ada', with: { path: '.user.name' }, description: 'a path with a leading dot' },
    { output: doc, value: 'y', with: { path: 'items[1].name' } },
    { output: doc, value: ['a', 'b'], with: { path: '$.user.tags' }, description: 'an array equals an array' },
    {
      output: doc,
      value: ['x', 'y', 'z'],
      with: { path: '$.items[0].name' },
      description: 'IN semantics: the value is one of the array',
    },
    { output: doc, value: 1, with: { path: "$['key.dot']" }, description: 'a quoted key' },
    {
      output: doc,
      value: ['x', 'y'],
      with: { path: '$.items[*].name' },
      description: 'a wildcard yields the list of matches',
    },
    { output: doc, value: null, with: { path: '$.nothing' }, description: 'a selected null' },
    { output: doc, with: { path: '$.user' }, description: 'without a value the path must exist' },
    {
      output: { items: [] },
      with: { path: '$.items' },
      description: 'exists: a definite path selecting an empty array selects a node',
    },
    { output: doc, with: { path: '$..price' }, description: 'exists: recursive descent that selects nodes' },
    {
      output: { items: [] },
      value: [],
      with: { path: '$.items[*]' },
      description: 'an indefinite path that selects nothing equals []',
    },
    { output: doc, value: doc, with: { path: '$' }, description: '$ is the whole output' },
    { output: [{ id: 7 }], value: 7, with: { path: '[0].id' } },
    {
      output: 'Result:\n```json\n{"need_search": true}\n```',
      value: true,
      with: { path: '$.need_search' },
      description: 'JSON extracted from text',
    },
    { output: 'need_search: true', value: true, with: { path: 'need_search' }, description: 'YAML text' },
  ],
  reject: [
    {
      output: doc,
      value: true,
      with: { path: '$.need_search' },
      reason: "path '$.need_search': expected true, got false",
    },
    {
      output: doc,
      value: 'x',
      with: { path: '$.missing' },
      reason: 'path \'$.missing\': expected "x", got nothing (no match)',
    },
    {
      output: doc,
      value: null,
      with: { path: '$.missing' },
      reason: /got nothing/,
      description: 'a missing key is not null',
    },
    { output: doc, with: { path: '$.missing' }, reason: "path '$.missing': expected a value, got nothing (no match)" },
    {
      output: { items: [] },
      with: { path: '$.items[*].id' },
      reason: "path '$.items[*].id': expected a value, got nothing (no match)",
      description: 'exists: a wildcard that selects nothing',
    },
    {
      output: doc,
      with: { path: '$..id' },
      reason: "path '$..id': expected a value, got nothing (no match)",
      description: 'exists: recursive descent that selects nothing',
    },
    {
      output: doc,
      with: { path: '$.items[5:9]' },
      reason: "path '$.items[5:9]': expected a value, got nothing (no match)",
      description: 'exists: a slice that selects nothing',
    },
    {
      output: doc,
      with: { path: '$.items[*].sku' },
      reason: /got nothing/,
      description: 'exists: a wildcard over items without the key',
    },
    {
      output: doc,
      value: ['p', 'q'],
      with: { path: '$.items[0].name' },
      reason: `path '$.items[0].name': expected ["p","q"], got "x"`,
    },
  ],
  unjudged: [
    {
      output: 'just words',
      with: { path: '$.a', negate: true },
      reason: 'output is not valid JSON: just words',
      description: 'text that is not JSON, negated or not',
    },
    { output: 42, value: 1, with: { path: '$.a' }, reason: 'output is not a JSON object or array, got: number = 42' },
    {
      output: undefined,
      with: { path: '$.a', negate: true },
      reason: /^output is not a JSON object or array, got: null/,
      description: 'no output at all',
    },
    { output: doc, value: 1, with: { path: '' }, reason: /the path is empty; use "\$"/ },
    {
      output: doc,
      value: 'y',
      with: { path: '$.items[?(@.price > 10)].name' },
      reason:
        "invalid json_path assertion: path '$.items[?(@.price > 10)].name': filter and script expressions ([?(...)], [(...)]) are disabled; select by key or index instead",
    },
    {
      output: doc,
      with: { path: "$['?(@.user)']" },
      reason: /filter and script expressions .* are disabled/,
      description: 'a quoted filter is a filter too',
    },
    {
      output: doc,
      with: { path: '$["(@.length-1)"]' },
      reason: /filter and script expressions .* are disabled/,
      description: 'a quoted script expression',
    },
    { output: doc, value: 1, reason: /^invalid json_path assertion: missing "path"/ },
    {
      output: doc,
      value: 1,
      with: { path: '$.items[0' },
      reason: `invalid json_path assertion: path '$.items[0': a "[" is not closed`,
    },
  ],
});
