import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { fixture, jsonl, PASSING } from './helpers.js';

// Which modules a command runs, from V8's coverage of the CLI's own process: `--version` and `--help` must start
// about as fast as Node itself, and a run loads an SDK, the script sandbox or the HTML template engine only when it
// needs them. Asserted on what is loaded and run, never on timings.

/** Loaded only by a run that needs them: LLM SDKs, the script sandbox (threads, bundler), HTML templates. */
const HEAVY = /\/node_modules\/(openai|@anthropic-ai\/sdk|piscina|esbuild|ejs)\//;
/** The kernel's run-time, the plugins, the reports and the schema library: not needed for the version or the help. */
const RUN_TIME =
  /\/packages\/(kernel\/dist\/kernel\.js|cli\/dist\/index\.js|plugin-[a-z-]+\/|report\/|reporter-[a-z-]+\/)|\/node_modules\/zod\//;
/**
 * What the default plugins load inside themselves when a run first needs it: the script sandbox's
 * worker pool, compiler and executor (with the judge and snapshots) and its coverage, the kit's suite
 * builder and `test()` runner, the Yao assistant pipeline, and the YAML parser, the glob library,
 * the diff flavours and RE2 (267 KB, for regex assertions and `--run` only);
 * and the packages' main modules, which export all of it.
 */
const ON_DEMAND =
  /\/node_modules\/(yaml|istanbul-[a-z-]+|v8-to-istanbul|tinyglobby|@modelcontextprotocol|re2js)\/|\/node_modules\/diff\/libesm\/index\.js|\/packages\/(plugin-script\/dist\/(index|execute-script|coverage\/to-istanbul|pool\/script-pool|script-suite|compile\/compile)\.js|plugin-kit\/dist\/(index|execute-spec|kit-suite)\.js|plugin-yao-resolver\/dist\/(index|yao-resolver)\.js|expect\/|reporter-html\/)/;
/**
 * What a run without a config file or `DEBUG` does not need: the config loader (cosmiconfig, whose search
 * would find nothing) and the `debug` logger.
 */
const ECHO_RUN_SKIPS = /\/node_modules\/(cosmiconfig|debug)\//;
/** The CLI as `tsc -b` builds it, one module per source file (from source, tsx itself would load esbuild). */
const DIST_BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
/** The command `@agentest/test` installs: the bundle's one script (scripts/bundle.mjs). */
const BUNDLED_BIN = fileURLToPath(new URL('../../test/bin/agentest.js', import.meta.url));
const ROOT = new URL('../../../', import.meta.url);
const BINS = [
  { name: 'dist', bin: DIST_BIN },
  { name: 'bundled', bin: BUNDLED_BIN },
];
/** Only a hang catcher: each command takes well under a second on an idle machine. */
const HANG_MS = 300_000;

interface ScriptCoverage {
  url: string;
  functions: { functionName: string; ranges: { count: number }[] }[];
}

/**
 * What a command ran, from the coverage V8 writes for the process (NODE_V8_COVERAGE): `urls`, every file Node
 * compiled (ES modules and CommonJS alike), and `modules`, the same with the bundle's script replaced by the
 * modules in it that were initialised (the script names each module's init function after its path, and runs it
 * on first use), so the same rules hold for the bundle as for dist/.
 */
function loadedBy(bin: string, args: string[], files: Record<string, string> = {}) {
  const dir = fixture(files);
  const coverage = join(dir, '.coverage');
  const run = spawnSync(process.execPath, [bin, ...args], {
    cwd: dir,
    encoding: 'utf8',
    timeout: HANG_MS,
    env: { ...process.env, NO_COLOR: '1', NODE_V8_COVERAGE: coverage },
  });
  assert.equal(run.status, 0, run.stderr);
  const scripts = readdirSync(coverage).flatMap(
    (file) => (JSON.parse(readFileSync(join(coverage, file), 'utf8')) as { result: ScriptCoverage[] }).result,
  );
  const urls = scripts.map((script) => script.url).filter((url) => url.startsWith('file:'));
  const modules = scripts.filter((script) => script.url.startsWith('file:')).flatMap(bundledModules);
  // The coverage works: the command's own entry is among what it saw.
  assert.ok(urls.includes(pathToFileURL(bin).href), `recorded: ${urls.join(', ')}`);
  return { stdout: run.stdout, urls, modules };
}

/** The bundle script's initialised modules, named as the files they were built from; any other file as it is. */
function bundledModules(script: ScriptCoverage): string[] {
  if (!script.url.endsWith('/packages/test/dist/bundle/agentest.cjs')) return [script.url];
  return script.functions
    .filter((fn) => /^(packages|node_modules)\/.+\.[cm]?js$/.test(fn.functionName) && fn.ranges[0]!.count > 0)
    .map((fn) => new URL(fn.functionName, ROOT).href);
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
      // The help is the command declarations' (seen, so the coverage sees the bundle's modules too); the version
      // is printed before the command-line parser loads.
      if (args[0] !== '--version') assert.ok(modules.some((url) => url.endsWith('/packages/cli/dist/program.js')));
      else
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
    // The run itself did load the kernel and the plugins: the coverage sees what a run loads.
    assert.ok(modules.some((url) => url.endsWith('/packages/kernel/dist/kernel.js')));
    assert.deepEqual(
      modules.filter((url) => HEAVY.test(url) || ON_DEMAND.test(url) || ECHO_RUN_SKIPS.test(url)),
      [],
    );
    // The bundle keeps only the parts of zod the schemas use (`import * as z`): not its ~50 translations (the
    // locales' index is left, empty).
    if (name === 'bundled')
      assert.deepEqual(
        modules.filter((url) => /\/node_modules\/zod\/v4\/locales\/(?!en\.js|index\.js)/.test(url)),
        [],
      );
  });
}

/** RE2's module, as the bundle names it or as Node loads it from node_modules. */
const RE2 = /\/node_modules\/re2js\//;

for (const { name, bin } of BINS) {
  test(`a run with a regex assertion, or with --run (${name}), loads RE2 once and matches with it`, () => {
    const files = {
      'regex.jsonl': jsonl([{ id: 'R1', input: 'Hello there', assert: { type: 'regex', value: '(?i)^hello' } }]),
      'ok.jsonl': PASSING,
    };
    const asserted = loadedBy(bin, ['test', '-i', 'regex.jsonl', '-n', 'echo', '-o', 'out.jsonl'], files);
    assert.match(asserted.stdout, /ALL TESTS PASSED/);
    assert.equal(asserted.modules.filter((url) => RE2.test(url)).length, 1, asserted.modules.join('\n'));
    const selected = loadedBy(bin, ['test', '-i', 'ok.jsonl', '-n', 'echo', '--run', '^P1$', '-o', 'out.jsonl'], files);
    assert.match(selected.stdout, /Total: +1\n/);
    assert.equal(selected.modules.filter((url) => RE2.test(url)).length, 1, selected.modules.join('\n'));
  });
}

test('the bundled command compiles a fraction of the files dist/ does: Node compiles and links each module', () => {
  const args = ['test', '-i', 'ok.jsonl', '-n', 'echo', '-o', 'out.jsonl'];
  const dist = loadedBy(DIST_BIN, args, { 'ok.jsonl': PASSING });
  const bundled = loadedBy(BUNDLED_BIN, args, { 'ok.jsonl': PASSING });
  // The same code runs: the modules the bundle initialised are ones the dist/ run loads.
  const kernel = (urls: string[]) => urls.filter((url) => url.includes('/packages/kernel/dist/'));
  assert.ok(kernel(bundled.modules).length > 10, bundled.modules.join('\n'));
  assert.deepEqual(
    kernel(bundled.modules).filter((url) => !dist.modules.includes(url)),
    [],
  );
  assert.ok(
    bundled.urls.length * 4 < dist.urls.length,
    `bundled: ${bundled.urls.length} files, dist: ${dist.urls.length}\n${bundled.urls.join('\n')}`,
  );
  // The kernel is one copy, in the bundle: never also loaded from its package.
  assert.deepEqual(
    bundled.urls.filter((url) => url.includes('/packages/kernel/')),
    [],
  );
});
