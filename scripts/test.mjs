#!/usr/bin/env node
// Runs every package's tests from source with node:test (Node 20 has no glob for --test, so we list files).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ensureChromium } from './ensure-chromium.mjs';

const root = new URL('..', import.meta.url).pathname;
const only = process.argv.slice(2);

function find(dir, out = []) {
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist' || name === 'fixtures' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) find(path, out);
    else if (/\.test\.ts$/.test(name) && /\/(test|e2e)\//.test(path)) out.push(relative(root, path));
  }
  return out;
}

const files = [...find(join(root, 'packages')), ...find(join(root, 'e2e'))].filter((f) => only.length === 0 || only.some((o) => f.includes(o))).sort();
if (files.length === 0) {
  console.error('no test files found');
  process.exit(1);
}
if (files.some((f) => f.includes('reporter-html') || f.endsWith('browser.test.ts'))) ensureChromium();
// A test file is itself a test under --test-timeout. These pack, install and build whole projects and
// take minutes on a busy machine, so they run after the others with a deadline of their own.
const SLOW = { files: ['e2e/installed-package.test.ts'], timeoutMs: 15 * 60_000 };
const slow = files.filter((f) => SLOW.files.includes(f));
const groups = [
  { files: files.filter((f) => !slow.includes(f)), timeoutMs: 120_000 },
  { files: slow, timeoutMs: SLOW.timeoutMs },
].filter((group) => group.files.length > 0);
let failed = false;
for (const group of groups) {
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--conditions=@agentest/source', '--test', '--test-concurrency=2', `--test-timeout=${group.timeoutMs}`, ...group.files],
    { cwd: root, stdio: 'inherit', env: { ...process.env, NO_COLOR: '1', AGENTEST_TEST: '1' } },
  );
  failed ||= result.status !== 0;
}
process.exit(failed ? 1 : 0);
