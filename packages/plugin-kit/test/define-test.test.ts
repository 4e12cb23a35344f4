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

test('tags come from the options and from a data test, and reach the kernel case', async () => {
  const { registeredCase } = await import('../src/kit-case.js');
  const { test: t, getRegistered: list } = createRegistry();
  t('fn', async () => {}, { timeout: 50, tags: ['smoke', ' slow '] });
  t('data', { query: 'q', tags: ['billing'] }, { tags: ['smoke'] });
  t('plain', { query: 'q' });
  const [fn, data, plain] = list();
  assert.deepEqual(fn!.tags, ['smoke', 'slow']);
  assert.equal(fn!.timeoutMs, 50);
  assert.deepEqual(data!.tags, ['smoke', 'billing']);
  assert.equal(plain!.tags, undefined);
  const source = { file: 'a.test.ts' };
  assert.deepEqual(registeredCase('a#fn', fn!, { name: 'fn' }, source).tags, ['smoke', 'slow']);
  assert.deepEqual(registeredCase('a#data', data!, undefined, source).tags, ['smoke', 'billing']);
  assert.equal(registeredCase('a#plain', plain!, undefined, source).tags, undefined);
  assert.throws(
    () => t('x', async () => {}, { tags: 'smoke' as never }),
    /test\("x", …\): tags must be an array of non-empty strings, e\.g\. \{ tags: \['smoke'\] \}/,
  );
  assert.throws(() => t('y', { query: 'q', tags: [''] }), /tags must be an array of non-empty strings/);
});

test("Vitest's order, options before the function, means the same; a data object there is refused by name", () => {
  const { test: t, getRegistered: list } = createRegistry();
  t('opts-first', { timeout: 1500, tags: ['smoke'] }, async () => {});
  t.only('ms-first', 700, async () => {});
  const [first, second] = list();
  assert.equal(typeof first!.fn, 'function');
  assert.equal(first!.timeoutMs, 1500);
  assert.deepEqual(first!.tags, ['smoke']);
  assert.equal(second!.timeoutMs, 700);
  assert.equal(second!.only, true);
  assert.throws(
    () => t('x', { query: 'q' } as never, async () => {}),
    /test\("x", …, fn\): "query" is not an option before the test function must be \{ timeout, tags \}/,
  );
});
