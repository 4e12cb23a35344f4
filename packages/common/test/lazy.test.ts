import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lazy } from '../src/lazy.js';

test('lazy makes its value on the first call only, and keeps it (undefined too)', () => {
  let made = 0;
  const value = lazy(() => ({ n: ++made }));
  assert.equal(made, 0, 'nothing is made before the first call');
  const first = value();
  assert.equal(value(), first);
  assert.equal(made, 1);
  let empties = 0;
  const nothing = lazy(() => void empties++);
  assert.equal(nothing(), undefined);
  nothing();
  assert.equal(empties, 1);
});
