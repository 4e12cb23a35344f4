import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleStaleness, recordInputs } from '../../../scripts/bundle-inputs.mjs';

// `tsc -b` rebuilds dist/ after a source change, not the bundle the `agentest` command runs: scripts/test.mjs
// rebuilds the bundle when the record scripts/bundle.mjs keeps of its inputs says one changed.

function checkout() {
  const base = mkdtempSync(join(tmpdir(), 'agentest-bundle-inputs-'));
  mkdirSync(join(base, 'packages/kernel/dist'), { recursive: true });
  writeFileSync(join(base, 'packages/kernel/dist/kernel.js'), 'export const kernel = 1;\n');
  writeFileSync(join(base, 'packages/kernel/package.json'), '{"version": "0.1.0"}\n');
  return { base, record: join(base, 'inputs.json') };
}

test('a bundle whose inputs are as recorded is up to date', () => {
  const paths = checkout();
  recordInputs(['packages/kernel/dist/kernel.js', 'packages/kernel/package.json'], paths);
  assert.equal(bundleStaleness(paths), undefined);
});

test('a rebuilt input (tsc -b after a source change) makes the bundle out of date, naming the file', () => {
  const paths = checkout();
  recordInputs(['packages/kernel/dist/kernel.js', 'packages/kernel/package.json'], paths);
  const later = new Date(Date.now() + 60_000);
  utimesSync(join(paths.base, 'packages/kernel/dist/kernel.js'), later, later);
  assert.equal(bundleStaleness(paths), 'packages/kernel/dist/kernel.js changed');
});

test('a removed input, or no record at all, makes the bundle out of date', () => {
  const paths = checkout();
  recordInputs(['packages/kernel/dist/kernel.js', 'packages/kernel/package.json'], paths);
  rmSync(join(paths.base, 'packages/kernel/package.json'));
  assert.equal(bundleStaleness(paths), 'packages/kernel/package.json is gone');
  rmSync(paths.record);
  assert.match(bundleStaleness(paths)!, /records no inputs/);
});

test("this checkout's bundle records what it was built from: the script's modules, the worker's, the mirrored files", () => {
  const record = JSON.parse(readFileSync(new URL('../dist/bundle/inputs.json', import.meta.url), 'utf8')) as Record<
    string,
    number
  >;
  for (const file of [
    'packages/kernel/dist/kernel.js',
    'packages/plugin-script/dist/worker/worker.js',
    'packages/reporter-html/assets/report.ejs',
    'packages/cli/package.json',
    'scripts/bundle.mjs',
  ])
    assert.ok(file in record, `${file} is recorded`);
  assert.ok(Object.keys(record).some((file) => file.startsWith('node_modules/zod/')));
});
