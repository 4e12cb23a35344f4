import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { JSONPath } from 'jsonpath-plus';
import { NO_MATCH, queryPath } from '../src/json/json-path.js';

/** What jsonpath-plus itself answers for a definite path. */
function viaLibrary(document: unknown, path: string): unknown {
  const matches = JSONPath({ path, json: document as object, wrap: true, eval: false }) as unknown[];
  return matches.length === 0 ? NO_MATCH : matches.length === 1 ? matches[0] : matches;
}

test('dotted paths into an object or array answer exactly what jsonpath-plus answers', () => {
  const names = fc.constantFrom('a', 'b', 'length', 'status', 'constructor', 'toString', '_x1');
  const leaf = fc.oneof(
    fc.integer(),
    fc.string({ maxLength: 4 }),
    fc.boolean(),
    fc.constant(null),
    fc.constant(0),
    fc.constant(''),
  );
  const documents = fc.letrec((tie) => ({
    node: fc.oneof(
      { depthSize: 'small' },
      leaf,
      fc.array(tie('node'), { maxLength: 3 }),
      fc.dictionary(names, tie('node'), { maxKeys: 3 }),
    ),
  })).node;
  const roots = fc.oneof(fc.array(documents, { maxLength: 3 }), fc.dictionary(names, documents, { maxKeys: 3 }));
  const paths = fc.array(names, { minLength: 1, maxLength: 3 }).map((keys) => `$.${keys.join('.')}`);
  fc.assert(
    fc.property(roots, paths, (document, path) =>
      assert.deepEqual(queryPath(document, path), viaLibrary(document, path), `${path} of ${JSON.stringify(document)}`),
    ),
    { numRuns: 5_000 },
  );
});

test('the short forms of a dotted path are the same path', () => {
  const document = { user: { name: 'Ada' } };
  for (const path of ['$.user.name', 'user.name', '.user.name']) assert.equal(queryPath(document, path), 'Ada');
  assert.equal(queryPath(document, 'user.age'), NO_MATCH);
});
