import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createT, FatalStop, TestRecord } from '../src/worker/testing.js';

function fresh() {
  const record = new TestRecord([]);
  return { record, t: createT('TestX', record, { seed: 1 }) as any };
}

describe('testing t and status precedence', () => {
  it('exposes name, main and a live failed flag', () => {
    const { t } = fresh();
    assert.equal(t.name, 'TestX');
    assert.deepEqual(t.main, { seed: 1 });
    assert.equal(t.failed, false);
    t.assert.True(false);
    assert.equal(t.failed, true);
  });

  it('passes when nothing failed', () => {
    assert.deepEqual(fresh().record.verdict({}), { status: 'passed' });
  });

  it('reports the first failure and the first failed assertion', () => {
    const { t, record } = fresh();
    t.assert.Equal(1, 2, 'first');
    t.error('second', 2);
    t.assert.Equal(3, 4);
    assert.deepEqual(record.verdict({}), { status: 'failed', error: 'assertion failed: first' });
    assert.deepEqual(record.assertion, { type: 'Equal', expected: 2, actual: 1, message: 'first' });
    assert.deepEqual(record.logs, ['ERROR: second 2']);
  });

  it('fail() marks failed with a default reason and does not stop', () => {
    const { t, record } = fresh();
    t.fail();
    t.log('still running');
    assert.deepEqual(record.verdict({}), { status: 'failed', error: 'test failed' });
    assert.deepEqual(record.logs, ['still running']);
  });

  it('fatal() records the failure and throws a stop marker', () => {
    const { t, record } = fresh();
    assert.throws(
      () => t.fatal('config missing'),
      (e) => e instanceof FatalStop,
    );
    assert.deepEqual(record.verdict({}), { status: 'failed', error: 'config missing' });
  });

  it('an exception is an error, unless something already failed', () => {
    assert.deepEqual(fresh().record.verdict({ exception: 'boom' }), { status: 'error', error: 'boom' });
    const { t, record } = fresh();
    t.assert.True(false, 'earlier');
    assert.deepEqual(record.verdict({ exception: 'boom' }), { status: 'failed', error: 'assertion failed: earlier' });
  });

  it('skip() wins over failures but not over exceptions or timeouts', () => {
    const { t, record } = fresh();
    t.assert.True(false);
    t.skip('not today');
    assert.deepEqual(record.verdict({}), { status: 'skipped', error: 'not today' });
    assert.deepEqual(record.logs, ['SKIP: not today']);
    assert.equal(fresh().record.verdict({ timedOut: 'timeout after 5ms' }).status, 'timeout');
    const other = fresh();
    other.t.skip();
    assert.equal(other.record.verdict({ exception: 'x' }).status, 'error');
  });
});
