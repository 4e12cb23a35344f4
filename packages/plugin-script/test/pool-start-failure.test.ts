import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';

const INDEX = fileURLToPath(new URL('../src/index.ts', import.meta.url));
/** tsx's ESM-only entry registers its loader in the main thread only: worker threads cannot load `.ts`. */
const MAIN_THREAD_ONLY_LOADER = import.meta.resolve('tsx/esm');

/** Runs `source` as a module in a child Node whose worker threads cannot load the sandbox's worker. */
function runWithBrokenWorkers(source: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'agentest-pool-start-'));
  // The script has a folder of its own: the sandbox bundles a script's sibling files with it.
  mkdirSync(join(dir, 'scripts'));
  writeFileSync(join(dir, 'scripts', 'hello.ts'), 'export function Hello() { return "hi"; }\n');
  writeFileSync(
    join(dir, 'main.mts'),
    source.replaceAll('DIR', JSON.stringify(dir)).replace('INDEX', JSON.stringify(INDEX)),
  );
  const child = spawn(
    process.execPath,
    ['--import', MAIN_THREAD_ONLY_LOADER, '--conditions=@agentest/source', join(dir, 'main.mts')],
    { cwd: dir },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

describe('a pool whose threads cannot start', () => {
  it('fails every call with the reason and a hint, at once, instead of leaving them queued', async () => {
    const run = await runWithBrokenWorkers(`
      const { createScriptPool } = await import(INDEX);
      const pool = createScriptPool({ maxThreads: 2 });
      const file = DIR + '/scripts/hello.ts';
      const first = await pool.call({ file, fn: 'Hello', args: [], timeoutMs: 60_000 });
      const again = await pool.test({ file, fn: 'Hello', args: [{}], timeoutMs: 60_000 });
      console.log(JSON.stringify({ first, again }));
      await pool.close();
    `);
    assert.equal(run.code, 0, run.stderr);
    const { first, again } = JSON.parse(run.stdout);
    assert.equal(first.status, 'error');
    assert.match(first.error, /^the script sandbox could not start its worker threads: .*worker\.ts/);
    assert.match(first.error, /run the built CLI, or Node with --import tsx/);
    assert.equal(again.status, 'error');
    assert.equal(again.error, first.error);
  });
});
