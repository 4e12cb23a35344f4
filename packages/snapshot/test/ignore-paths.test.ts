import assert from 'node:assert/strict';
import { test } from 'node:test';
import { IGNORED, ignoreProblem, withoutIgnored } from '../src/index.js';

test('the fields the paths select are marked ignored, the rest kept, the input untouched', () => {
  const output = {
    id: 'a1',
    created_at: '2026-12-01',
    reply: { text: 'hi', meta: { id: 7 } },
    items: [{ id: 1 }, { id: 2 }],
  };
  const copy = withoutIgnored(output, ['$.id', 'created_at', '$.items[*].id', '$..meta.id']);
  assert.deepEqual(copy, {
    id: IGNORED,
    created_at: IGNORED,
    reply: { text: 'hi', meta: { id: IGNORED } },
    items: [{ id: IGNORED }, { id: IGNORED }],
  });
  assert.equal(output.id, 'a1', 'the output itself is not changed');
  assert.equal(output.items[0]!.id, 1);
});

test('a path that selects nothing, or a value that is not an object, changes nothing', () => {
  assert.deepEqual(withoutIgnored({ a: 1 }, ['$.missing']), { a: 1 });
  assert.equal(withoutIgnored('text', ['$.id']), 'text');
  assert.deepEqual(withoutIgnored({ a: 1 }, ['$']), { a: 1 }, 'the root is never replaced');
});

test('ignore lists written wrongly are named', () => {
  assert.equal(ignoreProblem(['$.id', '.created_at']), undefined);
  assert.match(ignoreProblem('$.id') ?? '', /"ignore" must be a list of JSONPath strings/);
  assert.match(ignoreProblem(['$.id', 3]) ?? '', /must be a list of JSONPath strings/);
  assert.match(ignoreProblem(['  ']) ?? '', /must be a list of JSONPath strings/);
});
