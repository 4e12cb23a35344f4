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
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--conditions=@agentest/source', '--test', '--test-concurrency=2', '--test-timeout=120000', ...files],
  { cwd: root, stdio: 'inherit', env: { ...process.env, NO_COLOR: '1', AGENTEST_TEST: '1' } },
);
process.exit(result.status ?? 1);
