import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// The config type has no index signature: a key is agentest's own or declared by a plugin (module
// augmentation), so a misspelt key fails `tsc`. These compile against the built declarations (`tsc -b`).

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const TYPES = fileURLToPath(new URL('./types/', import.meta.url));
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');
/** tsc over the built declarations takes seconds; only a hang catcher. */
const TSC_HANG_MS = 300_000;

function tsc(project: string): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [TSC, '-p', project], { cwd: ROOT });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const timer = setTimeout(() => child.kill('SIGKILL'), TSC_HANG_MS);
  return new Promise((resolve) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    }),
  );
}

test("a config with agentest keys, the built-in plugins' sections and a plugin-declared key type-checks", async () => {
  const run = await tsc(join(TYPES, 'tsconfig.json'));
  assert.equal(run.code, 0, run.output);
});

test('the same config with `reporter:` for `reporters:` fails tsc, naming the key', async () => {
  const dir = mkdtempSync(join(TYPES, '.typo-'));
  try {
    const good = readFileSync(join(TYPES, 'config-keys.ts'), 'utf8');
    assert.match(good, /\n {2}reporters: /);
    writeFileSync(join(dir, 'config-keys.ts'), good.replace('\n  reporters: ', '\n  reporter: '));
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({ extends: '../tsconfig.json', files: ['config-keys.ts'] }),
    );
    const run = await tsc(join(dir, 'tsconfig.json'));
    assert.equal(run.code, 2, run.output);
    assert.match(
      run.output,
      /config-keys\.ts\(\d+,\d+\): error TS2561: .*'reporter' does not exist.*Did you mean to write 'reporters'\?/,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the examples (configs, plugins, reporters, test files) type-check with strict', async () => {
  const run = await tsc(join(ROOT, 'examples/tsconfig.json'));
  assert.equal(run.code, 0, run.output);
});
