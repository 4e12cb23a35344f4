import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_SERIALISED_DEPTH, safeStringify } from '../src/safe-json.js';

function nested(levels: number): unknown {
  let value: unknown = 'bottom';
  for (let i = 0; i < levels; i++) value = { next: value };
  return value;
}

test('plain values are written exactly as JSON.stringify writes them', () => {
  const value = { a: [1, 'two', null, { b: true }], c: undefined, d: new Date(0) };
  assert.equal(safeStringify(value), JSON.stringify(value));
  assert.equal(safeStringify(value, 2), JSON.stringify(value, null, 2));
  assert.equal(safeStringify(undefined), undefined);
});

test('a value nested 100,000 levels deep is written, cut off with a marker', () => {
  const text = safeStringify({ id: 'deep', metadata: nested(100_000) })!;
  const parsed = JSON.parse(text) as { id: string };
  assert.equal(parsed.id, 'deep');
  assert.match(text, new RegExp(`\\[unserialisable: nested deeper than ${MAX_SERIALISED_DEPTH} levels\\]`));
});

test('cycles, BigInts, throwing toJSON and throwing getters become markers; the rest stays', () => {
  const cyclic: Record<string, unknown> = { name: 'loop' };
  cyclic.self = cyclic;
  const shared = { x: 1 };
  const value = {
    cyclic,
    big: 12345678901234567890n,
    bad: {
      toJSON: () => {
        throw new Error('nope');
      },
    },
    getter: Object.defineProperty({}, 'boom', {
      enumerable: true,
      get: () => {
        throw new Error('trap');
      },
    }),
    twice: [shared, shared],
  };
  const parsed = JSON.parse(safeStringify(value)!) as Record<string, unknown>;
  assert.deepEqual(parsed.cyclic, { name: 'loop', self: '[unserialisable: circular reference]' });
  assert.equal(parsed.big, '[unserialisable: BigInt 12345678901234567890]');
  assert.equal(parsed.bad, '[unserialisable: toJSON threw: nope]');
  assert.deepEqual(parsed.getter, { boom: '[unserialisable: reading "boom" threw: trap]' });
  assert.deepEqual(parsed.twice, [{ x: 1 }, { x: 1 }], 'a value seen twice but not inside itself is not a cycle');
});
