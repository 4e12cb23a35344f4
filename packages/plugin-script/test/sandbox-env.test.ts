import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { acquireScriptPool, createScriptPool, type ScriptPool } from '../src/index.js';

const SECRET = 'AGENTEST_TEST_SANDBOX_SECRET';
const ALLOWED = 'AGENTEST_TEST_SANDBOX_ALLOWED';

describe('the sandbox environment', () => {
  let file: string;
  const saved = { ...process.env };
  before(() => {
    process.env[SECRET] = 'sk-never-seen';
    process.env[ALLOWED] = 'https://api.example';
    process.env.TZ ??= 'UTC';
    const dir = mkdtempSync(join(tmpdir(), 'agentest-env-'));
    file = join(dir, 'env.ts');
    writeFileSync(
      file,
      `// @ts-nocheck
export function Env(name) { return process.env[name] ?? null; }
export function Keys() { return Object.keys(process.env).sort(); }
export function Escape(how) {
  const routes = {
    fetch: () => fetch.constructor.constructor('return process')(),
    consoleLog: () => console.log.constructor('return process')(),
    url: () => new URL('http://a').constructor.constructor('return process')(),
    promise: () => Promise.resolve().then.constructor('return process')(),
    asyncHost: () => Object.getPrototypeOf(async function () {}).constructor('return process')(),
    processExit: () => process.exit.call.constructor('return process')(),
    log: () => log.Info.constructor('return process')(),
  };
  try { const reached = routes[how](); return reached && typeof reached.pid === 'number' ? 'reached the real process' : 'no process'; }
  catch (e) { return 'blocked: ' + e.constructor.name; }
}
export function Inspect() { console.log(fetch, [1, { a: 2 }]); return true; }
`,
    );
  });
  after(() => {
    for (const name of [SECRET, ALLOWED]) delete process.env[name];
    Object.assign(process.env, saved);
  });

  const read = async (pool: ScriptPool, fn: string, name?: string) => {
    const result = await pool.call({ file, fn, args: name ? [name] : [], timeoutMs: 30_000 });
    assert.equal(result.status, 'ok', JSON.stringify(result));
    return (result as { value: unknown }).value;
  };

  it('shows scripts only TZ, LANG and NODE_ENV by default: no connector key', async () => {
    const pool = createScriptPool({ maxThreads: 1 });
    try {
      assert.equal(await read(pool, 'Env', SECRET), null);
      assert.equal(await read(pool, 'Env', ALLOWED), null);
      assert.equal(await read(pool, 'Env', 'TZ'), process.env.TZ);
      const keys = (await read(pool, 'Keys')) as string[];
      assert.deepEqual(
        keys.filter((k) => !['TZ', 'LANG', 'NODE_ENV'].includes(k)),
        [],
      );
    } finally {
      await pool.close();
    }
  });

  it('adds the variables the config names, and shared pools with different lists stay apart', async () => {
    const named = acquireScriptPool({ maxThreads: 1, env: [ALLOWED] });
    const bare = acquireScriptPool({ maxThreads: 1 });
    try {
      assert.notEqual(named.pool, bare.pool);
      assert.equal(await read(named.pool, 'Env', ALLOWED), 'https://api.example');
      assert.equal(await read(named.pool, 'Env', SECRET), null);
      assert.equal(await read(bare.pool, 'Env', ALLOWED), null);
    } finally {
      await Promise.all([named.release(), bare.release()]);
    }
  });

  it('host objects lent to scripts lead to no code generation (fetch.constructor.constructor(...) is refused)', async () => {
    const pool = createScriptPool({ maxThreads: 1 });
    try {
      for (const how of ['fetch', 'consoleLog', 'url', 'promise', 'asyncHost', 'processExit', 'log']) {
        const result = await pool.call({ file, fn: 'Escape', args: [how], timeoutMs: 30_000, yao: {} });
        assert.equal((result as { value?: unknown }).value, 'blocked: EvalError', `${how}: ${JSON.stringify(result)}`);
      }
      const shown = await pool.call({ file, fn: 'Inspect', args: [], timeoutMs: 30_000 });
      assert.deepEqual(shown.logs, ['[Function: fetch] [ 1, { a: 2 } ]'], 'host functions still print as before');
    } finally {
      await pool.close();
    }
  });
});
