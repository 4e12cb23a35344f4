import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
// @ts-expect-error: a build script in plain JavaScript, without declarations
import { replaceDir } from '../../../scripts/replace-dir.mjs';

// scripts/bundle.mjs builds the bundle beside the live one and puts it in place with replaceDir. A second `npm test`
// on the same checkout runs commands from the live bundle while the first one's packaging test rebuilds it.

function folder(root: string, name: string, files: Record<string, string>): string {
  const dir = join(root, name);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
  return dir;
}

const BUNDLE = {
  'bin.js': 'import "./chunk-A.js";\n',
  'chunk-A.js': 'export const a = 1;\n',
  'mirror/x/p.json': '{}\n',
};

test('a rebuild with the same files leaves the live bundle untouched: what runs from it keeps every chunk', () => {
  const root = mkdtempSync(join(tmpdir(), 'agentest-bundle-swap-'));
  const live = folder(root, 'bundle', BUNDLE);
  const before = { dir: statSync(live).ino, chunk: statSync(join(live, 'chunk-A.js')).ino };
  const built = folder(root, 'bundle-1', BUNDLE);
  assert.equal(replaceDir(built, live), 'unchanged');
  assert.deepEqual({ dir: statSync(live).ino, chunk: statSync(join(live, 'chunk-A.js')).ino }, before);
  assert.deepEqual(readdirSync(root), ['bundle'], 'the build is removed, nothing is left beside the bundle');
});

test('a rebuild that differs in a byte, an added or a missing file replaces the live bundle whole', () => {
  const root = mkdtempSync(join(tmpdir(), 'agentest-bundle-swap-'));
  const variants: Record<string, string>[] = [
    { ...BUNDLE, 'chunk-A.js': 'export const a = 2;\n' },
    { ...BUNDLE, 'chunk-B.js': 'export const b = 1;\n' },
    { 'bin.js': BUNDLE['bin.js'], 'chunk-A.js': BUNDLE['chunk-A.js'] },
  ];
  for (const [i, files] of variants.entries()) {
    const live = folder(root, `bundle-${i}`, BUNDLE);
    assert.equal(replaceDir(folder(root, `built-${i}`, files), live), 'replaced');
    for (const [file, text] of Object.entries(files)) assert.equal(readFileSync(join(live, file), 'utf8'), text);
  }
  assert.deepEqual(readdirSync(root).sort(), ['bundle-0', 'bundle-1', 'bundle-2'], 'no build or old bundle is left');
  assert.equal(existsSync(join(root, 'bundle-2/mirror')), false, 'a file the build no longer has is gone');
});

test('a first build (no live bundle yet) is put in place', () => {
  const root = mkdtempSync(join(tmpdir(), 'agentest-bundle-swap-'));
  assert.equal(replaceDir(folder(root, 'built', BUNDLE), join(root, 'bundle')), 'replaced');
  assert.deepEqual(readdirSync(root), ['bundle']);
  assert.equal(readFileSync(join(root, 'bundle/chunk-A.js'), 'utf8'), BUNDLE['chunk-A.js']);
});
