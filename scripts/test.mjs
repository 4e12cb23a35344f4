#!/usr/bin/env node
// Runs every package's tests from source with node:test (Node 20 has no glob for --test, so we list files).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { bundleStaleness } from './bundle-inputs.mjs';
import { ensureChromium } from './ensure-chromium.mjs';

const root = new URL('..', import.meta.url).pathname;
const only = process.argv.slice(2);

// The whole suite starts with the formatter and the linter (npm run lint): a finding fails `npm test`
// before any test runs. A run of chosen files (`node scripts/test.mjs <substring>`) skips them.
if (only.length === 0) {
  const lint = spawnSync(process.execPath, [join(root, 'scripts/lint.mjs')], { cwd: root, stdio: 'inherit' });
  if (lint.status !== 0) process.exit(lint.status ?? 1);
}

// Some tests run the compiled packages (`dist/`). `npm ci` builds them, but a checkout whose sources changed since
// would test stale files. `tsc -b` writes nothing when they are up to date, so a second `npm test` running at the
// same time is not disturbed; the `agentest` command's bundle (scripts/bundle.mjs), which `tsc -b` does not touch,
// is rebuilt when a file it was built from changed (it swaps itself in whole, so a command running meanwhile sees
// the old bundle or the new).
const build = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-b'], {
  cwd: root,
  stdio: 'inherit',
});
if (build.status !== 0) process.exit(build.status ?? 1);
const stale = bundleStaleness();
if (stale) {
  console.log(`The bundle is out of date (${stale}): rebuilding it.`);
  const bundle = spawnSync(process.execPath, [join(root, 'scripts/bundle.mjs')], { cwd: root, stdio: 'inherit' });
  if (bundle.status !== 0) process.exit(bundle.status ?? 1);
}

/**
 * Variables of the machine the suite runs on that change what agentest does: a CI's (`CI` refuses `.only` and new
 * snapshots, `GITHUB_ACTIONS` adds the GitHub reporter and writes the job summary, a parallel job's index runs one
 * shard of every suite), an app root, colour and debug output. The suite runs without them, so a CI runner or a
 * developer's shell gives the same results; the tests of that behaviour set them on the runs they start.
 */
const HOST_ONLY = [
  'CI',
  'GITHUB_ACTIONS',
  'GITHUB_STEP_SUMMARY',
  'GITHUB_WORKSPACE',
  'CI_NODE_INDEX',
  'CI_NODE_TOTAL',
  'BUILDKITE_PARALLEL_JOB',
  'BUILDKITE_PARALLEL_JOB_COUNT',
  'CIRCLE_NODE_INDEX',
  'CIRCLE_NODE_TOTAL',
  'JOB_COMPLETION_INDEX',
  'AGENTEST_SHARD_TOTAL',
  'YAO_ROOT',
  'FORCE_COLOR',
  'DEBUG',
];
const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !HOST_ONLY.includes(name)));

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
// many times that on a busy one; e2e/installed-package.test.ts (pack, npm install, four tsc runs) took
// over 15 minutes at a machine load of 35 on 2 cores. Tests that wait on something keep their own hang
// deadlines (e2e/helpers/deadlines.ts), which fail sooner and say what hung.
const FILE_HANG_MS = 60 * 60_000;
// These pack, install and build whole projects, and take longest (e2e/installed-package.test.ts: 8 minutes at a
// machine load of 26). Two files run at a time, so the longest starts first: the other worker gets through the
// rest meanwhile, where started last it would run on its own at the end, one core idle, for most of its time.
const SLOW = ['e2e/installed-package.test.ts'];
const ordered = [...files.filter((f) => SLOW.includes(f)), ...files.filter((f) => !SLOW.includes(f))];
const result = spawnSync(
  process.execPath,
  [
    '--import',
    'tsx',
    '--conditions=@agentest/source',
    `--test-timeout=${FILE_HANG_MS}`,
    join(root, 'scripts/run-test-files.mjs'),
    '--concurrency=2',
    `--timeout=${FILE_HANG_MS}`,
    ...ordered,
  ],
  { cwd: root, stdio: 'inherit', env: { ...env, NO_COLOR: '1', AGENTEST_TEST: '1' } },
);
process.exit(result.status ?? 1);
