import assert from 'node:assert/strict';
import { test } from 'node:test';
import { acquireScriptPool, keepScriptPoolsWarm } from '../src/index.js';

const OPTIONS = { maxThreads: 1, memoryLimitMb: 64, env: ['KEEP_WARM_TEST'] };

test('while kept warm, a pool released by its last holder stays open for the next run, and closes after', async () => {
  const letGo = keepScriptPoolsWarm();
  const first = acquireScriptPool(OPTIONS);
  await first.release();
  const second = acquireScriptPool(OPTIONS);
  assert.equal(second.pool, first.pool, 'the next run gets the same threads');
  const closed: string[] = [];
  const close = second.pool.close.bind(second.pool);
  second.pool.close = async () => (closed.push('closed'), close());
  await second.release();
  assert.deepEqual(closed, [], 'not closed while the watch holds it');
  await letGo();
  assert.deepEqual(closed, ['closed'], 'closed once nobody keeps it');
  const third = acquireScriptPool(OPTIONS);
  assert.notEqual(third.pool, first.pool, 'a later run starts a new pool');
  await third.release();
});

test('without a keeper, the last release closes the pool as before', async () => {
  const first = acquireScriptPool(OPTIONS);
  await first.release();
  const second = acquireScriptPool(OPTIONS);
  assert.notEqual(second.pool, first.pool);
  await second.release();
});
