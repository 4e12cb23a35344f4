import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const pkgDir = fileURLToPath(new URL('..', import.meta.url));
const manifest = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')) as {
  version: string;
  bin: Record<string, string>;
};

// The committed bin file and its message without a build are checked for every package in
// e2e/package-manifests.test.ts; this checks that it starts the built command line.
test('the agentest bin runs the built command line', () => {
  const run = spawnSync(process.execPath, [join(pkgDir, manifest.bin.agentest!), '--version'], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  assert.equal(run.stderr, '');
  assert.equal(run.stdout.trim(), manifest.version);
  assert.equal(run.status, 0);
});
