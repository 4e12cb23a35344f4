import assert from 'node:assert/strict';
import { test } from 'node:test';
import { deepEqual, extractJson, stableStringify } from '../src/index.js';

test('stableStringify sorts keys at every level and stays compact', () => {
  assert.equal(
    stableStringify({ b: 1, a: { d: [{ z: 1, y: 2 }], c: null } }),
    '{"a":{"c":null,"d":[{"y":2,"z":1}]},"b":1}',
  );
});

test('stableStringify is total: undefined, bigint, cycles, toJSON', () => {
  assert.equal(stableStringify(undefined), 'null');
  assert.equal(stableStringify({ n: 10n }), '{"n":"10"}');
  const cyclic: Record<string, unknown> = { a: 1 };
  cyclic.self = cyclic;
  assert.equal(stableStringify(cyclic), '{"a":1,"self":"[Circular]"}');
  const shared = { x: 1 };
  assert.equal(
    stableStringify({ p: shared, q: shared }),
    '{"p":{"x":1},"q":{"x":1}}',
    'a shared object is not a cycle',
  );
  assert.equal(stableStringify({ d: new Date(0) }), '{"d":"1970-01-01T00:00:00.000Z"}');
});

test('deepEqual ignores key order and undefined properties, respects array order', () => {
  assert.ok(deepEqual({ a: [1, { b: 2, c: 3 }] }, { a: [1, { c: 3, b: 2 }] }));
  assert.ok(deepEqual({ a: 1, b: undefined }, { a: 1 }));
  assert.ok(!deepEqual([1, 2], [2, 1]));
  assert.ok(!deepEqual({ a: 1 }, { a: 1, b: null }));
  assert.ok(!deepEqual('1', 1));
  assert.ok(!deepEqual([], {}));
});

const extraction: [string, string, unknown][] = [
  ['fenced json', 'Here:\n```json\n{"a": 1}\n```', { a: 1 }],
  ['fenced yaml', '```yaml\na: 1\nb: [x]\n```', { a: 1, b: ['x'] }],
  ['first parsable block wins', '```json\nnot json at all\n```\n```json\n{"second": true}\n```', { second: true }],
  ['unlabelled fence detected as JSON', '```\n[1, 2]\n```', [1, 2]],
  ['bare JSON', '  {"a": {"b": [1]}}  ', { a: { b: [1] } }],
  ['YAML key: value', 'need_search: true', { need_search: true }],
  ['YAML document marker', '---\nx: 1', { x: 1 }],
  ['repaired JSON', "{a: 1, b: 'two', c: [1, 2,],}", { a: 1, b: 'two', c: [1, 2] }],
  ['comments in JSON', '{\n  // a comment\n  "a": 1\n}', { a: 1 }],
  ['JSON embedded in prose', 'Sure! {"a": 1} Hope that helps.', { a: 1 }],
  ['a URL is not YAML', 'see https://example.com: it is nice', undefined],
  ['plain prose', 'Hello there, how are you?', undefined],
  ['empty', '   ', undefined],
];
for (const [name, text, expected] of extraction) {
  test(`extractJson: ${name}`, () => assert.deepEqual(extractJson(text), expected));
}
