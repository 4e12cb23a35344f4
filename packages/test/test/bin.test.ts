import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const pkgDir = fileURLToPath(new URL('..', import.meta.url));
const manifest = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')) as { name: string; version: string; bin: Record<string, string> };
const HANG_MS = 60_000;

test('the agentest bin is a file in the repository, not a build output', () => {
  const target = manifest.bin.agentest!;
  assert.doesNotMatch(target, /^(\.\/)?dist\//, 'npm links bins before `prepare` builds dist/');
  assert.ok(existsSync(join(pkgDir, target)), `${target} exists before any build`);
  // Tracked by git, so a fresh clone has it: `git ls-files --error-unmatch` fails for an untracked file.
  execFileSync('git', ['ls-files', '--error-unmatch', target], { cwd: pkgDir, stdio: 'ignore' });
});

test('the bin runs the built command line', () => {
  const run = spawnSync(process.execPath, [join(pkgDir, manifest.bin.agentest!), '--version'], { encoding: 'utf8', timeout: HANG_MS });
  assert.equal(run.stderr, '');
  assert.equal(run.stdout.trim(), manifest.version);
  assert.equal(run.status, 0);
});

test('without a build the bin says how to build instead of failing with a stack trace', () => {
  const copy = mkdtempSync(join(tmpdir(), 'agentest-bin-'));
  mkdirSync(join(copy, 'bin'));
  copyFileSync(join(pkgDir, 'package.json'), join(copy, 'package.json'));
  copyFileSync(join(pkgDir, manifest.bin.agentest!), join(copy, manifest.bin.agentest!));
  const run = spawnSync(process.execPath, [join(copy, manifest.bin.agentest!), '--version'], { encoding: 'utf8', timeout: HANG_MS });
  assert.equal(run.status, 2);
  assert.equal(run.stdout, '');
  assert.match(run.stderr, /^agentest is not built: .*dist\/bin\.js is missing\./);
  assert.match(run.stderr, /run `npm run build`/);
  assert.doesNotMatch(run.stderr, /\n\s+at /, 'no stack trace');
});
