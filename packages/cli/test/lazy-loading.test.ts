import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MODULE_LOAD_RECORDER } from '@agentest/test-utils';
import { fixture, PASSING } from './helpers.js';

// Which modules a command loads, recorded by a module hook in the CLI's own process: `--version` and
// `--help` must start about as fast as Node itself, and a run loads an SDK, the script sandbox or the
// HTML template engine only when it needs them. Asserted on what is loaded, never on timings.

/** Loaded only by a run that needs them: LLM SDKs, the script sandbox (threads, bundler), HTML templates. */
const HEAVY = /\/node_modules\/(openai|@anthropic-ai\/sdk|piscina|esbuild|ejs)\//;
/** The kernel's run-time, the plugins, the reports and the schema library: not needed for the version or the help. */
const RUN_TIME =
  /\/packages\/(kernel\/dist\/kernel\.js|cli\/dist\/index\.js|plugin-[a-z-]+\/|report\/|reporter-[a-z-]+\/)|\/node_modules\/zod\//;
/**
 * What the default plugins load inside themselves when a run first needs it: the script sandbox's
 * worker pool, compiler and executor (with the judge and snapshots) and its coverage, the kit's suite
 * builder and `test()` runner, the Yao assistant pipeline, and the YAML parser, the glob library and
 * the diff flavours;
 * and the packages' main modules, which export all of it.
 */
const ON_DEMAND =
  /\/node_modules\/(yaml|istanbul-[a-z-]+|v8-to-istanbul|tinyglobby|@modelcontextprotocol)\/|\/node_modules\/diff\/libesm\/index\.js|\/packages\/(plugin-script\/dist\/(index|execute-script|coverage\/to-istanbul|pool\/script-pool|script-suite|compile\/compile)\.js|plugin-kit\/dist\/(index|execute-spec|kit-suite)\.js|plugin-yao-resolver\/dist\/(index|yao-resolver)\.js|expect\/|reporter-html\/)/;
/**
 * What a run without a config file or `DEBUG` does not need: the config loader (cosmiconfig, whose search
 * would find nothing) and the `debug` logger. Both are CommonJS, seen in the CommonJS cache.
 */
const ECHO_RUN_SKIPS = /\/node_modules\/(cosmiconfig|debug)\//;
/** The CLI as `tsc -b` builds it, one module per source file (from source, tsx itself would load esbuild). */
const DIST_BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
/** The command `@agentest/test` installs: the bundle (scripts/bundle.mjs). */
const BUNDLED_BIN = fileURLToPath(new URL('../../test/bin/agentest.js', import.meta.url));
const BINS = [
  { name: 'dist', bin: DIST_BIN },
  { name: 'bundled', bin: BUNDLED_BIN },
];
/** Only a hang catcher: each command takes well under a second on an idle machine. */
const HANG_MS = 300_000;

/**
 * What a command loads: `urls`, every module Node loaded, and `modules`, the same with each bundle chunk
 * replaced by the modules compiled into it (from its source map, named as their dist/ files), so the
 * same rules hold for the bundle as for dist/.
 */
function loadedBy(bin: string, args: string[], files: Record<string, string> = {}) {
  const dir = fixture({ 'record-loads.mjs': MODULE_LOAD_RECORDER, ...files });
  const log = join(dir, 'loaded.txt');
  writeFileSync(log, '');
  const run = spawnSync(process.execPath, [bin, ...args], {
    cwd: dir,
    encoding: 'utf8',
    timeout: HANG_MS,
    env: {
      ...process.env,
      NO_COLOR: '1',
      NODE_OPTIONS: `--import ${join(dir, 'record-loads.mjs')}`,
      AGENTEST_LOADED: log,
    },
  });
  assert.equal(run.status, 0, run.stderr);
  const urls = [...new Set(readFileSync(log, 'utf8').split('\n').filter(Boolean))];
  const modules = urls.flatMap(bundledModules);
  // The recorder works: the CLI's own entry is among what it saw.
  assert.ok(
    modules.some((url) => url.endsWith('/packages/cli/dist/bin.js')),
    `recorded: ${modules.join(', ')}`,
  );
  return { stdout: run.stdout, urls, modules };
}

/** A bundle chunk's modules, named as the dist/ files they were built from; any other URL as it is. */
function bundledModules(url: string): string[] {
  if (!url.includes('/packages/test/dist/bundle/')) return [url];
  const map = new URL(`${url}.map`);
  const { sources } = JSON.parse(readFileSync(map, 'utf8')) as { sources: string[] };
  return sources.map((source) =>
    new URL(source, map).href.replace(/\/packages\/([^/]+)\/src\/(.+)\.ts$/, '/packages/$1/dist/$2.js'),
  );
}

for (const { name, bin } of BINS) {
  for (const args of [['--version'], ['--help'], ['test', '--help']]) {
    test(`agentest ${args.join(' ')} (${name}) loads neither the kernel's run-time, the plugins, the schemas nor an SDK`, () => {
      const { stdout, modules } = loadedBy(bin, args);
      assert.match(stdout, args[0] === '--version' ? /^\d+\.\d+\.\d+/ : /Usage: agentest/);
      assert.deepEqual(
        modules.filter((url) => RUN_TIME.test(url) || HEAVY.test(url)),
        [],
      );
      // The version is printed before the command-line parser loads.
      if (args[0] === '--version')
        assert.deepEqual(
          modules.filter((url) => url.includes('/node_modules/commander/')),
          [],
        );
    });
  }

  test(`a run against the echo agent (${name}) loads no SDK, script sandbox, template engine, or plugin machinery it does not use`, () => {
    const { stdout, modules } = loadedBy(bin, ['test', '-i', 'ok.jsonl', '-n', 'echo', '-o', 'out.jsonl'], {
      'ok.jsonl': PASSING,
    });
    assert.match(stdout, /ALL TESTS PASSED/);
    // The run itself did load the kernel and the plugins: the recorder sees what a run loads.
    assert.ok(modules.some((url) => url.endsWith('/packages/kernel/dist/kernel.js')));
    assert.deepEqual(
      modules.filter((url) => HEAVY.test(url) || ON_DEMAND.test(url) || ECHO_RUN_SKIPS.test(url)),
      [],
    );
    // The bundle keeps only the parts of zod the schemas use (`import * as z`): not its ~50 translations.
    if (name === 'bundled')
      assert.deepEqual(
        modules.filter((url) => /\/node_modules\/zod\/v4\/locales\/(?!en\.js)/.test(url)),
        [],
      );
  });
}

test('the bundled command loads a fraction of the ES modules dist/ does: Node compiles and links each one', () => {
  const args = ['test', '-i', 'ok.jsonl', '-n', 'echo', '-o', 'out.jsonl'];
  const dist = loadedBy(DIST_BIN, args, { 'ok.jsonl': PASSING });
  const bundled = loadedBy(BUNDLED_BIN, args, { 'ok.jsonl': PASSING });
  // The same code runs: the bundle's chunks hold modules the dist/ run loads (a module that only
  // re-exports leaves nothing in a chunk).
  const kernel = (urls: string[]) => urls.filter((url) => url.includes('/packages/kernel/dist/'));
  assert.ok(kernel(bundled.modules).length > 10, bundled.modules.join('\n'));
  assert.deepEqual(
    kernel(bundled.modules).filter((url) => !dist.modules.includes(url)),
    [],
  );
  assert.ok(
    bundled.urls.length * 4 < dist.urls.length,
    `bundled: ${bundled.urls.length} modules, dist: ${dist.urls.length}\n${bundled.urls.join('\n')}`,
  );
  // The kernel is one copy, in the bundle: never also loaded from its package.
  assert.deepEqual(
    bundled.urls.filter((url) => url.includes('/packages/kernel/')),
    [],
  );
});
