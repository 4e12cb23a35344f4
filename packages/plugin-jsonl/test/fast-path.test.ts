import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { assertionSchema, caseSchema, isWellTypedAssertion, isWellTypedCase } from '../src/case-schema.js';

// Values of every JSON kind, for the fields the fast path looks at.
const anyJson = fc.oneof(
  fc.string(),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.integer(), { maxLength: 2 }),
  fc.dictionary(fc.string({ maxLength: 3 }), fc.integer(), { maxKeys: 2 }),
);
const caseShape = fc.record(
  {
    id: anyJson,
    input: anyJson,
    user: anyJson,
    team: anyJson,
    name: anyJson,
    metadata: anyJson,
    options: anyJson,
    skip: anyJson,
    todo: anyJson,
    timeout: anyJson,
    extra: anyJson,
  },
  { requiredKeys: [] },
);
const assertionShape = fc.record(
  { type: anyJson, negate: anyJson, message: anyJson, path: anyJson, script: anyJson, value: anyJson },
  { requiredKeys: [] },
);

test('the fast path accepts exactly what the case schema accepts', () => {
  fc.assert(
    fc.property(caseShape, (value) =>
      assert.equal(isWellTypedCase(value), caseSchema().safeParse(value).success, JSON.stringify(value)),
    ),
    { numRuns: 3000 },
  );
});

test('the fast path accepts exactly what the assertion schema accepts', () => {
  fc.assert(
    fc.property(assertionShape, (value) =>
      assert.equal(isWellTypedAssertion(value), assertionSchema().safeParse(value).success, JSON.stringify(value)),
    ),
    { numRuns: 3000 },
  );
});
