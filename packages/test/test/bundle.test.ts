import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { MODULE_LOAD_RECORDER } from '@agentest/test-utils';
import { loadCachedScript } from '../src/cached-script.js';

// The `agentest` command runs the bundle (scripts/bundle.mjs, built by `npm run build`). What a bundle can
// break is checked here against the built bundle itself: CommonJS packages it loads, files found relative to
// a module (package versions, templates, the sandbox runtime, the worker), one kernel shared with a config
// that imports `@agentest/test`, and stack traces that name the sources.

const pkgDir = fileURLToPath(new URL('..', import.meta.url));
const ROOT = join(pkgDir, '../..');
const BIN = join(pkgDir, 'bin/agentest.js');
const { version } = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')) as { version: string };
/** Only a hang catcher: each command takes a second or two on an idle machine. */
const HANG_MS = 300_000;

/** A project outside the repository with `@agentest/test` installed (linked), as a user has it. */
function project(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'agentest-bundle-'));
  writeFileSync(join(dir, 'package.json'), '{"name": "bundled", "private": true, "type": "module"}\n');
  mkdirSync(join(dir, 'node_modules/@agentest'), { recursive: true });
  symlinkSync(pkgDir, join(dir, 'node_modules/@agentest/test'), 'dir');
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

function agentest(dir: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  const run = spawnSync(process.execPath, [BIN, ...args], {
    cwd: dir,
    encoding: 'utf8',
    timeout: HANG_MS,
    env: { ...process.env, NO_COLOR: '1', ...env },
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr, output: run.stdout + run.stderr };
}

const CASES = `${[1, 2]
  .map((i) => JSON.stringify({ id: `C${i}`, input: `hello ${i}`, assert: [{ type: 'contains', value: 'hello' }] }))
  .join('\n')}\n`;

test('the plugin examples (a config and five plugins importing @agentest/test) run with the bundled command, on its one kernel', () => {
  const dir = project({ 'record-loads.mjs': MODULE_LOAD_RECORDER });
  cpSync(join(ROOT, 'examples/plugins'), dir, { recursive: true, filter: (file) => !file.includes('/output') });
  const log = join(dir, 'loaded.txt');
  writeFileSync(log, '');
  const run = agentest(dir, ['test', '--no-jsonl'], {
    NODE_OPTIONS: `--import ${join(dir, 'record-loads.mjs')}`,
    AGENTEST_LOADED: log,
  });
  assert.equal(run.code, 0, run.output);
  // The loader, the resolver, the executor, the assertion type and the reporter all took part.
  assert.equal(readFileSync(join(dir, 'output/greetings.csv.txt'), 'utf8'), 'passed  G1\npassed  G2\n2/2 passed\n');
  assert.equal(
    readFileSync(join(dir, 'output/conversations.jsonl.txt'), 'utf8'),
    'passed  C1\npassed  C2\n2/2 passed\n',
  );
  const loaded = readFileSync(log, 'utf8').split('\n').filter(Boolean);
  // The config's `@agentest/test` is the bundle's own entry, so nothing is loaded a second time from dist/.
  assert.ok(
    loaded.some((url) => url.endsWith('/packages/test/dist/bundle/index.js')),
    loaded.join('\n'),
  );
  // (The loader of the bundle's script is the one module of dist/ that runs outside it.)
  const bundleFiles = /\/packages\/test\/dist\/(bundle\/|load-bundle\.js$|cached-script\.js$)/;
  assert.deepEqual(
    loaded.filter((url) => /\/packages\/[^/]+\/(dist|src)\//.test(url) && !bundleFiles.test(url)),
    [],
  );
});

test('the build ships a code cache of the bundle that this Node takes', () => {
  const dist = join(pkgDir, 'dist/bundle');
  const script = loadCachedScript(join(dist, 'agentest.cjs'), () => [join(dist, 'code-cache')]);
  assert.equal(script.cache, 'used');
});

test("`@agentest/test` and `@agentest/test/kit` are the exports of the command's one script, loaded once", async () => {
  const dist = pathToFileURL(join(pkgDir, 'dist/')).href;
  const { loadBundle } = (await import(`${dist}load-bundle.js`)) as typeof import('../src/load-bundle.js');
  const index = (await import(`${dist}bundle/index.js`)) as Record<string, unknown>;
  const kit = (await import(`${dist}bundle/kit.js`)) as Record<string, unknown>;
  assert.equal(index.AgentestError, loadBundle().index().AgentestError);
  assert.equal(index.definePlugin, loadBundle().index().definePlugin);
  // One `test()` registry, whichever entry a test file imports it from.
  assert.equal(kit.test, index.test);
  assert.equal(kit.runSuite, loadBundle().kit().runSuite);
});

test('the bundled command prints its package version, and the JSON report names it', () => {
  const dir = project({ 'cases.jsonl': CASES });
  const printed = agentest(dir, ['--version']);
  assert.equal(printed.stdout, `${version}\n`, printed.output);
  const run = agentest(dir, ['test', '-i', 'cases.jsonl', '-n', 'echo', '-o', 'report.json']);
  assert.equal(run.code, 0, run.output);
  assert.match(readFileSync(join(dir, 'report.json'), 'utf8'), new RegExp(`"${version.replaceAll('.', '\\.')}"`));
});

for (const [name, text] of [
  ['.agentestrc.yaml', 'test:\n  suites:\n    - input: cases.jsonl\n      agent: echo\n'],
  ['agentest.config.json', JSON.stringify({ test: { suites: [{ input: 'cases.jsonl', agent: 'echo' }] } })],
] as const) {
  test(`a ${name} config loads through the CommonJS config loader`, () => {
    const dir = project({ [name]: text, 'cases.jsonl': CASES });
    const run = agentest(dir, ['test', '--no-jsonl']);
    assert.equal(run.code, 0, run.output);
    assert.match(run.stdout, /ALL TESTS PASSED/);
  });
}

test('script assertions run in the sandbox worker threads, and test() files in the kit sandbox', () => {
  const dir = project({
    'scripts/check.ts': 'export function Check(output: unknown) { return output === "hello"; }\n',
    'cases.jsonl': `${JSON.stringify({ id: 'S', input: 'hello', assert: { type: 'script', script: 'scripts.check.Check' } })}\n`,
    'tests/kit.test.ts': `import { test, expect } from '@agentest/test';\ntest('adds', () => { expect(1 + 1).toBe(2); });\n`,
  });
  const script = agentest(dir, ['test', '-i', 'cases.jsonl', '-n', 'echo', '-o', 'report.json']);
  assert.equal(script.code, 0, script.output);
  const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as { results: { status: string }[] };
  assert.deepEqual(
    report.results.map((r) => r.status),
    ['passed'],
  );
  const kit = agentest(dir, ['test', '-i', 'tests/kit.test.ts', '-n', 'echo']);
  assert.equal(kit.code, 0, kit.output);
});

test('the HTML report is written from its templates', () => {
  const dir = project({ 'cases.jsonl': CASES });
  const run = agentest(dir, ['test', '-i', 'cases.jsonl', '-n', 'echo', '-o', 'report.html']);
  assert.equal(run.code, 0, run.output);
  assert.match(readFileSync(join(dir, 'report.html'), 'utf8'), /<html[\s\S]*C1[\s\S]*C2/);
});

test('with DEBUG=agentest, a stack trace names the TypeScript sources, not the bundle', () => {
  const dir = project({ 'agentest.config.json': '{"test": {"suites": [{"input": "missing.jsonl"}]}}' });
  const run = agentest(dir, ['test', '-n', 'echo'], { DEBUG: 'agentest:*' });
  assert.equal(run.code, 2, run.output);
  assert.match(run.stderr, /\n\s+at .*\/packages\/[a-z-]+\/src\/[\w/-]+\.ts:\d+:\d+/);
  assert.doesNotMatch(run.stderr, /\n\s+at .*\/dist\/bundle\//);
});
