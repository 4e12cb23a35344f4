import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createRegistry } from '../src/define-test.js';
import { clearRegistered, getRegistered, test as registerTest } from '../src/index.js';

test('registrations keep agentest-kit field names, data fields and options', () => {
  const { test: t, getRegistered: list } = createRegistry();
  const fn = async () => {};
  t('fn', fn, 500);
  t('data', { query: 'q', expected_keywords: ['k'], intent: 'i', difficulty: 'hard', notes: 'n', custom: 1 });
  t.skip('skipped');
  t.todo('later', { ignored: true });
  t.only('focused', fn, { timeout: 9 });
  assert.deepEqual(
    list().map(({ fn: f, ...r }) => ({ ...r, fn: f === null ? null : typeof f })),
    [
      { name: 'fn', status: 'active', fn: 'function', query: null, expected_keywords: [], timeoutMs: 500 },
      {
        name: 'data',
        status: 'active',
        fn: null,
        query: 'q',
        expected_keywords: ['k'],
        intent: 'i',
        difficulty: 'hard',
        notes: 'n',
        data: { query: 'q', expected_keywords: ['k'], intent: 'i', difficulty: 'hard', notes: 'n', custom: 1 },
      },
      { name: 'skipped', status: 'skip', fn: 'function', query: null, expected_keywords: [] },
      { name: 'later', status: 'todo', fn: null, query: null, expected_keywords: [] },
      {
        name: 'focused',
        status: 'active',
        only: true,
        fn: 'function',
        query: null,
        expected_keywords: [],
        timeoutMs: 9,
      },
    ],
  );
});

test('misuse is a clear TypeError, not a crash inside the library', () => {
  const { test: t } = createRegistry();
  assert.throws(
    () => (t as unknown as (n: string) => void)('x'),
    /test\("x"\) needs a data object or a test function; use test\.todo\("x"\)/,
  );
  assert.throws(() => t('', async () => {}), /needs a name/);
  assert.throws(() => t('x', 'q' as never), /must be a data object/);
  assert.throws(() => t('x', async () => {}, -1), /timeout must be a number of milliseconds/);
  assert.throws(() => t('x', { expected_keywords: 'k' as never }), /expected_keywords must be an array of strings/);
});

test('the main-thread registry records the registering file and can be cleared', () => {
  clearRegistered();
  registerTest('here', async () => {});
  assert.equal(getRegistered()[0]!.file, new URL(import.meta.url).pathname);
  clearRegistered();
  assert.deepEqual(getRegistered(), []);
});
