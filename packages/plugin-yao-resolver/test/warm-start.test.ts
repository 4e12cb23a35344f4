/**
 * An assistant with hook scripts starts the script sandbox, and bundles its hook file, while it is
 * resolved (before the first case), so that start-up is not counted in the first cases' durations.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { it } from 'node:test';
import { acquireScriptPool } from '@agentest/plugin-script';
import { harness, writeTree } from './helpers.js';

it('resolving an assistant with a hook script warms the sandbox with its hook file', async () => {
  const root = writeTree({
    'app.yao': '{}',
    'assistants/hooked/package.yao': '{}',
    'assistants/hooked/src/index.ts': 'export function Next() { return { data: "hooked" }; }',
    'assistants/plain/package.yao': '{}',
  });
  // The resolver's hooks use the shared pool with default options: this lease holds the same one.
  const lease = acquireScriptPool();
  const warmed: (readonly string[] | undefined)[] = [];
  const warm = lease.pool.warm.bind(lease.pool);
  lease.pool.warm = async (files) => {
    warmed.push(files);
    await warm(files);
  };
  try {
    const h = harness();
    await h.resolve({ id: 'plain' }, root);
    assert.deepEqual(warmed, [], 'an assistant without hooks does not start the sandbox');
    await h.resolve({ id: 'hooked' }, root);
    assert.deepEqual(warmed, [[join(root, 'assistants/hooked/src/index.ts')]]);
    await h.close();
  } finally {
    await lease.release();
  }
});
