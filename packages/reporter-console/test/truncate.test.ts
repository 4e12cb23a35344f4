import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { truncate } from '../src/text.js';

/** The definition: collapse whitespace runs, trim, then cut by code points. */
function reference(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const chars = [...flat];
  return chars.length <= max ? flat : chars.slice(0, Math.max(0, max - 3)).join('') + '...';
}

test('truncate agrees with its definition on any text, surrogates and odd whitespace included', () => {
  const pieces = fc.constantFrom(
    'a',
    'b',
    ' ',
    '  ',
    '\n',
    '\t',
    '\r\n',
    '\u00a0',
    '\u2003',
    'é',
    '😀',
    '\ud800',
    '\udc00',
  );
  fc.assert(
    fc.property(fc.array(pieces, { maxLength: 70 }), fc.integer({ min: 0, max: 60 }), (parts, max) => {
      const text = parts.join('');
      assert.equal(truncate(text, max), reference(text, max), JSON.stringify([text, max]));
    }),
    { numRuns: 20_000 },
  );
  fc.assert(
    fc.property(fc.string({ maxLength: 80 }), fc.integer({ min: 0, max: 60 }), (text, max) =>
      assert.equal(truncate(text, max), reference(text, max)),
    ),
    { numRuns: 5_000 },
  );
});

test('truncate cuts long text to max characters ending in "..."', () => {
  assert.equal(truncate('hello world', 50), 'hello world');
  assert.equal(truncate('x'.repeat(60), 10), 'xxxxxxx...');
  assert.equal(truncate('😀'.repeat(12), 10), '😀'.repeat(7) + '...');
});
