/**
 * Integers beyond 2^53 compare exactly when both sides were parsed from text: the case file (through
 * the kernel's `parseJson`) and a text reply (through `extractJson`).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Assertion } from '@agentest/kernel';
import { carryExactText, parseJson } from '@agentest/common';
import { builtinAssertion, runAssertion, stableStringify } from '../src/index.js';
import { assertInput } from './helpers.js';

/** An assertion as the JSONL loader builds it: parsed from its line, so big integers keep their text. */
const parsed = (json: string) => parseJson(json) as Assertion;

function judge(assertion: Assertion, output: unknown) {
  return runAssertion(builtinAssertion(assertion.type)!, assertion, assertInput(output));
}

test('json_path: 12345678901234567890 is not 12345678901234567891', () => {
  const assertion = parsed('{"type": "json_path", "path": "$.n", "value": 12345678901234567890}');
  const differs = judge(assertion, '{"n": 12345678901234567891}');
  assert.equal(differs.pass, false);
  assert.equal(differs.message, "path '$.n': expected 12345678901234567890, got 12345678901234567891");
  assert.equal(judge(assertion, '{"n": 12345678901234567890}').pass, true);
  assert.equal(
    judge(parsed('{"type": "json_path", "path": "n", "value": 12345678901234567890}'), '{"n": 12345678901234567891}')
      .pass,
    false,
    'a dotted path',
  );
});

test('json_path: lists of matches and IN semantics keep the texts', () => {
  const list = parsed('{"type": "json_path", "path": "$.items[*].id", "value": [12345678901234567890]}');
  assert.equal(judge(list, '{"items": [{"id": 12345678901234567891}]}').pass, false);
  assert.equal(judge(list, '{"items": [{"id": 12345678901234567890}]}').pass, true);
  const oneOf = parsed('{"type": "json_path", "path": "$.n", "value": [1, 12345678901234567890]}');
  assert.equal(judge(oneOf, '{"n": 12345678901234567891}').pass, false);
  assert.equal(judge(oneOf, '{"n": 12345678901234567890}').pass, true);
});

test('equals: nested and whole big integers', () => {
  const nested = parsed('{"type": "equals", "value": {"n": 12345678901234567890}}');
  const differs = judge(nested, 'Here: {"n": 12345678901234567891}');
  assert.equal(differs.pass, false);
  assert.equal(differs.message, 'expected {"n":12345678901234567890}, got {"n":12345678901234567891}');
  assert.equal(judge(nested, '{"n": 12345678901234567890}').pass, true);
  // `expected` as a whole number, carried onto the assertion the loader builds from it.
  const line = parseJson('{"expected": [12345678901234567890]}') as { expected: unknown };
  const fromExpected: Assertion = { type: 'equals', value: line.expected };
  carryExactText(line, 'expected', fromExpected, 'value');
  assert.equal(judge(fromExpected, '[12345678901234567891]').pass, false);
});

test('a number that arrived already parsed has no source text and compares as a double (the documented limit)', () => {
  const assertion = parsed('{"type": "json_path", "path": "$.n", "value": 12345678901234567890}');
  assert.equal(judge(assertion, { n: Number('12345678901234567891') }).pass, true);
});

test('stableStringify prints a parsed big integer as it was written', () => {
  assert.equal(
    stableStringify(parseJson('{"b": [12345678901234567891], "a": 1}')),
    '{"a":1,"b":[12345678901234567891]}',
  );
  assert.equal(stableStringify({ n: Number('12345678901234567891') }), '{"n":12345678901234567000}');
});
