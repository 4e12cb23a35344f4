import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseCasesJson } from '../src/index.js';

const rows: [string, string, RegExp][] = [
  [
    'a missing case_id names the case number and line',
    '[\n {"case_id":"C1","query":"a"},\n {"query":"b"}\n]',
    /^cases\.json:3: case #2: case_id is required$/,
  ],
  [
    'a missing query names the case',
    '[{"case_id":"C1"}]',
    /cases\.json:1: case #1 \("C1"\): query is required \(only a "todo" case may leave it out\)/,
  ],
  [
    'keywords must be strings',
    '[{"case_id":"C1","query":"a","expected_keywords":[1]}]',
    /case #1 \("C1"\): expected_keywords\.0/,
  ],
  [
    'skip must be a flag or a reason',
    '[{"case_id":"C1","query":"a","skip":1}]',
    /skip must be true, false or a reason/,
  ],
  [
    'duplicate ids name both lines',
    '[\n{"case_id":"C1","query":"a"},\n{"case_id":"C1","query":"b"}]',
    /cases\.json:3: case_id "C1" is already used at line 2/,
  ],
  ['not an array', '{"case_id":"C1"}', /expected an array of cases/],
  ['invalid JSON names the line', '[\n{"case_id": "C1",,}\n]', /^cases\.json:2: invalid JSON/],
  ['a case must be an object', '["C1"]', /case #1 must be an object/],
];

for (const [name, source, message] of rows) {
  test(`cases.json: ${name}`, () =>
    assert.throws(
      () => parseCasesJson(source, 'cases.json'),
      (error: Error) => (assert.match(error.message, message), true),
    ));
}

test('cases.json: valid cases keep every field and their line', () => {
  const cases = parseCasesJson(
    '[\n{"case_id":"C1","query":"q","intent":"x","custom":{"a":1}},\n{"case_id":"C2","todo":true}]',
    'cases.json',
  );
  assert.deepEqual(cases, [
    { case: { case_id: 'C1', query: 'q', intent: 'x', custom: { a: 1 } }, line: 2 },
    { case: { case_id: 'C2', todo: true }, line: 3 },
  ]);
});
