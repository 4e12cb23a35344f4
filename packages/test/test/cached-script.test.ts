import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCachedScript } from '../src/cached-script.js';

// The loader of the bundle's one script (scripts/bundle.mjs writes it): V8's code cache is saved, read back,
// refused when stale, and never worth a failed run. Each script here is written as the build writes one: a
// CommonJS module whose dynamic imports call the wrapper's sixth argument, and whose last line names its id.
// Each load is of a new copy (same name, same text, another folder): V8 keeps what a process compiled by
// source and file name, and would answer a second load of one file from that, never reading the code cache.

interface Exports {
  double(n: number): number;
  platform(): Promise<string>;
}

/** A new copy of the script `id` (`body` changes its code), as the build would write it. */
function scriptFile(id: string, body = 'module.exports.double = (n) => n * 2;'): string {
  const dir = mkdtempSync(join(tmpdir(), 'agentest-cached-script-'));
  const file = join(dir, 'script.cjs');
  writeFileSync(
    file,
    [
      'var __dimp = arguments[5];',
      body,
      "module.exports.platform = () => __dimp('node:os').then((os) => os.platform());",
      `// agentest-script ${id}`,
      '',
    ].join('\n'),
  );
  return file;
}

const cacheFiles = (dir: string) => readdirSync(dir).filter((name) => name.endsWith('.cache'));

test('the first load has no cache and saves one after the work; the next load compiles from it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'agentest-code-cache-'));
  const first = loadCachedScript<Exports>(scriptFile('a1'), () => [dir]);
  assert.equal(first.cache, 'missing');
  assert.equal(first.exports.double(2), 4);
  first.saveCache();
  assert.equal(cacheFiles(dir).length, 1);
  assert.match(cacheFiles(dir)[0]!, new RegExp(`^script\\.cjs-a1-${process.arch}-v8-`));

  const second = loadCachedScript<Exports>(scriptFile('a1'), () => [dir]);
  assert.equal(second.cache, 'used');
  assert.equal(second.exports.double(21), 42);
  // `import()` in the script works from the code cache too (Node's own callback for it is lost there).
  assert.equal(await second.exports.platform(), process.platform);
});

test('a script with another id (a rebuilt bundle) does not take the old cache, whatever its length', () => {
  const dir = mkdtempSync(join(tmpdir(), 'agentest-code-cache-'));
  const old = loadCachedScript<Exports>(scriptFile('b1', 'module.exports.double = (n) => n * 2;'), () => [dir]);
  old.exports.double(1);
  old.saveCache();
  // The same length, other code: V8 checks only the length, so the id must tell them apart.
  const rebuilt = loadCachedScript<Exports>(scriptFile('b2', 'module.exports.double = (n) => n * 3;'), () => [dir]);
  assert.equal(rebuilt.cache, 'missing');
  assert.equal(rebuilt.exports.double(2), 6);
});

test('a cache V8 refuses (another Node, or damaged) is reported, the script still runs, and saving replaces it', () => {
  const dir = mkdtempSync(join(tmpdir(), 'agentest-code-cache-'));
  loadCachedScript<Exports>(scriptFile('c1'), () => [dir]).saveCache();
  const [name] = cacheFiles(dir);
  writeFileSync(join(dir, name!), Buffer.alloc(512, 7));

  const refused = loadCachedScript<Exports>(scriptFile('c1'), () => [dir]);
  assert.equal(refused.cache, 'rejected');
  assert.equal(refused.exports.double(5), 10);
  refused.saveCache();
  assert.notDeepEqual(readFileSync(join(dir, name!)), Buffer.alloc(512, 7));
  assert.equal(loadCachedScript<Exports>(scriptFile('c1'), () => [dir]).cache, 'used');
});

test('a folder that cannot be written is skipped for the next one, and when none can be, the run goes on', () => {
  const blocker = join(mkdtempSync(join(tmpdir(), 'agentest-code-cache-')), 'a-file');
  writeFileSync(blocker, '');
  // A folder below a file can never be created, whoever runs the test (root ignores permission bits).
  const unwritable = join(blocker, 'cache');
  const fallback = mkdtempSync(join(tmpdir(), 'agentest-code-cache-'));

  loadCachedScript<Exports>(scriptFile('d1'), () => [unwritable, fallback]).saveCache();
  assert.equal(cacheFiles(fallback).length, 1);
  assert.equal(loadCachedScript<Exports>(scriptFile('d1'), () => [unwritable, fallback]).cache, 'used');

  const nowhere = loadCachedScript<Exports>(scriptFile('d2'), () => [unwritable]);
  assert.doesNotThrow(() => nowhere.saveCache());
  assert.equal(nowhere.exports.double(4), 8);
});

test('the folders after the first are not asked for while the first has the cache', () => {
  const dir = mkdtempSync(join(tmpdir(), 'agentest-code-cache-'));
  loadCachedScript<Exports>(scriptFile('e1'), () => [dir]).saveCache();
  const asked: string[] = [];
  function* dirs() {
    asked.push(dir);
    yield dir;
    asked.push('later');
    yield join(dir, 'later');
  }
  assert.equal(loadCachedScript<Exports>(scriptFile('e1'), dirs).cache, 'used');
  assert.deepEqual(asked, [dir]);
});

test('a file that is not a bundle script is refused with a message that says to rebuild', () => {
  const dir = mkdtempSync(join(tmpdir(), 'agentest-cached-script-'));
  writeFileSync(join(dir, 'other.cjs'), 'module.exports = 1;\n');
  assert.throws(() => loadCachedScript(join(dir, 'other.cjs'), () => [dir]), /not a bundle script.*npm run build/);
});
