import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { oneLine, truncate } from '../src/index.js';

/** The definition: cut by code points, the ellipsis counted in the limit. */
function reference(text: string, max: number, ellipsis: string): string {
  const chars = [...text];
  return chars.length <= max ? text : chars.slice(0, Math.max(0, max - [...ellipsis].length)).join('') + ellipsis;
}

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

test('truncate agrees with its definition on any text, surrogates included, with either ellipsis', () => {
  fc.assert(
    fc.property(
      fc.array(pieces, { maxLength: 70 }),
      fc.integer({ min: 0, max: 60 }),
      fc.constantFrom('…', '...'),
      (parts, max, ellipsis) => {
        const text = parts.join('');
        assert.equal(truncate(text, max, ellipsis), reference(text, max, ellipsis), JSON.stringify([text, max]));
      },
    ),
    { numRuns: 20_000 },
  );
});

test('oneLine collapses whitespace runs and trims; tidy text comes back as it is', () => {
  fc.assert(
    fc.property(fc.array(pieces, { maxLength: 70 }), (parts) => {
      const text = parts.join('');
      assert.equal(oneLine(text), text.replace(/\s+/g, ' ').trim());
    }),
    { numRuns: 10_000 },
  );
});

test('documents cut with "…", the terminal layout with "...": one rule, two marks', () => {
  assert.equal(truncate('hello world', 50), 'hello world');
  assert.equal(truncate('x'.repeat(60), 10), 'xxxxxxxxx…');
  assert.equal(truncate('x'.repeat(60), 10, '...'), 'xxxxxxx...');
  assert.equal(truncate('😀'.repeat(12), 10), '😀'.repeat(9) + '…');
  assert.equal(truncate('😀'.repeat(12), 10, '...'), '😀'.repeat(7) + '...');
});
