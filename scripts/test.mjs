#!/usr/bin/env node
// Runs every package's tests from source with node:test (Node 20 has no glob for --test, so we list files).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ensureChromium } from './ensure-chromium.mjs';

const root = new URL('..', import.meta.url).pathname;
const only = process.argv.slice(2);

// The whole suite starts with the formatter and the linter (npm run lint): a finding fails `npm test`
// before any test runs. A run of chosen files (`node scripts/test.mjs <substring>`) skips them.
if (only.length === 0) {
  const lint = spawnSync(process.execPath, [join(root, 'scripts/lint.mjs')], { cwd: root, stdio: 'inherit' });
  if (lint.status !== 0) process.exit(lint.status ?? 1);
}

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

const files = [...find(join(root, 'packages')), ...find(join(root, 'e2e'))]
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();
if (files.length === 0) {
  console.error('no test files found');
  process.exit(1);
}
if (files.some((f) => f.includes('reporter-html') || f.endsWith('browser.test.ts'))) ensureChromium();
// Node 20 applies --test-timeout to each test file as a whole as well as to each test in it. It only
// catches hangs: the slowest files (dozens of CLI runs) take a minute or two on an idle machine and
// many times that on a busy one. Tests that wait on something keep their own hang deadlines
// (e2e/helpers/deadlines.ts), which fail sooner and say what hung.
const FILE_HANG_MS = 30 * 60_000;
// These pack, install and build whole projects: they run last, so they do not compete with the rest.
const SLOW = ['e2e/installed-package.test.ts'];
const ordered = [...files.filter((f) => !SLOW.includes(f)), ...files.filter((f) => SLOW.includes(f))];
const result = spawnSync(
  process.execPath,
  [
    '--import',
    'tsx',
    '--conditions=@agentest/source',
    '--test',
    '--test-concurrency=2',
    `--test-timeout=${FILE_HANG_MS}`,
    ...ordered,
  ],
  { cwd: root, stdio: 'inherit', env: { ...process.env, NO_COLOR: '1', AGENTEST_TEST: '1' } },
);
process.exit(result.status ?? 1);
