import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { ERROR_CATALOGUE, renderErrorCatalogue } from '../src/errors-entry.js';

test('docs/errors.md is generated from the catalogue and up to date (npm run docs:errors)', () => {
  const onDisk = readFileSync(new URL('../../../docs/errors.md', import.meta.url), 'utf8');
  assert.equal(onDisk, renderErrorCatalogue());
});

test('catalogue codes are alphabetical SCREAMING_SNAKE with an exit code, trigger and fix', () => {
  const codes = Object.keys(ERROR_CATALOGUE);
  assert.deepEqual(codes, [...codes].sort());
  for (const [code, entry] of Object.entries(ERROR_CATALOGUE)) {
    assert.match(code, /^[A-Z][A-Z_]+$/);
    assert.ok([2, 3].includes(entry.exit));
    assert.ok(entry.trigger.length > 10 && entry.fix.length > 10, code);
  }
});
