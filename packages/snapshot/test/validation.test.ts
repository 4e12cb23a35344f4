import assert from 'node:assert/strict';
import { test } from 'node:test';
import { validateSnapshotAssertion } from '../src/index.js';

test('a snapshot assertion written rightly has no problem', () => {
  assert.equal(validateSnapshotAssertion({ type: 'snapshot' }), undefined);
  assert.equal(
    validateSnapshotAssertion({ type: 'snapshot', name: 'body', ignore: ['$.id'], message: 'x' }),
    undefined,
  );
});

test('each way of writing it wrongly is named, with what to write', () => {
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ negate: true }, /"negate" is not a field of it \(fields: type, name, ignore, message\)/],
    [{ value: 'x' }, /"value" is not a field of it/],
    [{ name: '' }, /"name" must be a non-empty string/],
    [{ name: '#2' }, /"name" "#2" is kept for unnamed snapshots/],
    [{ ignore: '$.id' }, /"ignore" must be a list of JSONPath strings such as \["\$\.id", "\$\.created_at"\]/],
  ];
  for (const [extra, problem] of cases)
    assert.match(validateSnapshotAssertion({ type: 'snapshot', ...extra }) ?? '', problem, JSON.stringify(extra));
});
