import assert from 'node:assert/strict';
import { test } from 'node:test';
import { exactText } from '@agentest/common';
import { parseCase } from '../src/index.js';

const AT = { file: 'cases.jsonl', line: 3, baseDir: '/' };

test('integers beyond 2^53 in a case keep their source text for the assertions that compare them', () => {
  const fromExpected = parseCase('{"id": "a", "input": "x", "expected": 12345678901234567891}', AT);
  assert.equal(fromExpected.assert![0]!.type, 'equals');
  assert.equal(exactText(fromExpected.assert![0], 'value'), '12345678901234567891');
  const untyped = parseCase('{"id": "b", "input": "x", "assert": {"value": 12345678901234567891}}', AT);
  assert.equal(untyped.assert![0]!.type, 'equals');
  assert.equal(exactText(untyped.assert![0], 'value'), '12345678901234567891');
  const jsonPath = parseCase(
    '{"id": "c", "input": "x", "assert": [{"type": "json_path", "path": "$.n", "value": [12345678901234567891]}]}',
    AT,
  );
  assert.equal(exactText(jsonPath.assert![0]!.value, 0), '12345678901234567891');
});
