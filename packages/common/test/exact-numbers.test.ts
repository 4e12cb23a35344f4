import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { hasLongDigitRun } from '../src/exact-numbers.js';
import { carryExactText, exactText, parseJson, sameExactNumber } from '../src/index.js';

test('parseJson keeps the source text of integers beyond 2^53, beside plain numbers', () => {
  const value = parseJson(
    '{"a": 12345678901234567891, "b": [1, -98765432109876543210], "c": 9007199254740991, "d": 1.5}',
  ) as { a: number; b: number[]; c: number };
  assert.equal(typeof value.a, 'number', 'values stay plain numbers');
  assert.equal(exactText(value, 'a'), '12345678901234567891');
  assert.equal(exactText(value.b, 1), '-98765432109876543210');
  assert.equal(exactText(value, 'c'), undefined, 'a safe integer needs no text');
  assert.equal(exactText(value, 'd'), undefined);
  assert.deepEqual(
    JSON.stringify(value),
    JSON.stringify(
      JSON.parse('{"a": 12345678901234567891, "b": [1, -98765432109876543210], "c": 9007199254740991, "d": 1.5}'),
    ),
    'the same value as JSON.parse',
  );
});

test('parseJson behaves as JSON.parse otherwise: repeated keys, errors, text without long numbers', () => {
  assert.deepEqual(parseJson('{"k": 1, "k": 2, "id": "12345678901234567890"}'), { k: 2, id: '12345678901234567890' });
  assert.throws(
    () => parseJson('{"n": 12345678901234567890'),
    (error: Error) =>
      error instanceof SyntaxError &&
      error.message ===
        (() => {
          try {
            JSON.parse('{"n": 12345678901234567890');
          } catch (e) {
            return (e as Error).message;
          }
        })(),
  );
  const plain = parseJson('{"a": [1, 2]}');
  assert.deepEqual(plain, { a: [1, 2] });
  const proto = parseJson('{"__proto__": {"x": 12345678901234567890}}') as Record<string, unknown>;
  assert.equal(Object.getPrototypeOf(proto), Object.prototype, 'a __proto__ key is data, as with JSON.parse');
});

test('texts are carried to copies; two numbers equal as doubles are the same only if their texts agree', () => {
  const line = parseJson('{"expected": 12345678901234567890}') as { expected: number };
  const assertion = { value: line.expected };
  carryExactText(line, 'expected', assertion, 'value');
  assert.equal(exactText(assertion, 'value'), '12345678901234567890');
  const n = Number('12345678901234567890'); // a double: the digits past 2^53 are lost
  assert.equal(sameExactNumber(n, '12345678901234567890', '12345678901234567891'), false);
  assert.equal(sameExactNumber(n, '12345678901234567890', '12345678901234567890'), true);
  assert.equal(
    sameExactNumber(n, '12345678901234567890', undefined),
    true,
    'a number without source text compares as a double',
  );
});

test('the long-digit check agrees with /\\d{16}/ on any text, wherever the run falls', () => {
  const char = fc.constantFrom(...'0123456789', 'a', '"', ',', ' ', '٣', '.');
  fc.assert(
    fc.property(fc.array(char, { maxLength: 120 }), (chars) => {
      const text = chars.join('');
      assert.equal(hasLongDigitRun(text), /\d{16}/.test(text), text);
    }),
    { numRuns: 20_000 },
  );
  for (let at = 0; at < 40; at++)
    assert.equal(hasLongDigitRun(`${'x'.repeat(at)}${'7'.repeat(16)}y`), true, `a run at ${at}`);
  assert.equal(hasLongDigitRun(`${'1'.repeat(15)}.${'2'.repeat(15)}`), false);
});
