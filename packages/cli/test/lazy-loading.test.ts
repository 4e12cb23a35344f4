import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fixture, PASSING } from './helpers.js';

// Which modules a command loads, recorded by a module hook in the CLI's own process: `--version` and
// `--help` must start about as fast as Node itself, and a run loads an SDK, the script sandbox or the
// HTML template engine only when it needs them. Asserted on what is loaded, never on timings.

/** Registers a load hook that appends every loaded module's URL to the file named by AGENTEST_LOADED. */
const RECORDER = `
import { register } from 'node:module';
register('data:text/javascript,' + encodeURIComponent(\`
import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  appendFileSync(process.env.AGENTEST_LOADED, url + '\\\\n');
  return next(url, context);
}\`));
`;

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
/** The command `@agentest/test` installs, built: from source, tsx itself would load esbuild. */
const BIN = fileURLToPath(new URL('../../test/bin/agentest.js', import.meta.url));
/** Only a hang catcher: each command takes well under a second on an idle machine. */
const HANG_MS = 300_000;

function loadedBy(args: string[], files: Record<string, string> = {}) {
  const dir = fixture({ 'record-loads.mjs': RECORDER, ...files });
  const log = join(dir, 'loaded.txt');
  writeFileSync(log, '');
  const run = spawnSync(process.execPath, [BIN, ...args], {
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
  const loaded = readFileSync(log, 'utf8').split('\n').filter(Boolean);
  // The recorder works: the CLI's own entry is among what it saw.
  assert.ok(
    loaded.some((url) => url.endsWith('/packages/cli/dist/bin.js')),
    `recorded: ${loaded.join(', ')}`,
  );
  return { stdout: run.stdout, loaded };
}

for (const args of [['--version'], ['--help'], ['test', '--help']]) {
  test(`agentest ${args.join(' ')} loads neither the kernel's run-time, the plugins, the schemas nor an SDK`, () => {
    const { stdout, loaded } = loadedBy(args);
    assert.match(stdout, args[0] === '--version' ? /^\d+\.\d+\.\d+/ : /Usage: agentest/);
    assert.deepEqual(
      loaded.filter((url) => RUN_TIME.test(url) || HEAVY.test(url)),
      [],
    );
    // The version is printed before the command-line parser loads.
    if (args[0] === '--version')
      assert.deepEqual(
        loaded.filter((url) => url.includes('/node_modules/commander/')),
        [],
      );
  });
}

test('a run against the echo agent loads no SDK, script sandbox, template engine, or plugin machinery it does not use', () => {
  const { stdout, loaded } = loadedBy(['test', '-i', 'ok.jsonl', '-n', 'echo', '-o', 'out.jsonl'], {
    'ok.jsonl': PASSING,
  });
  assert.match(stdout, /ALL TESTS PASSED/);
  // The run itself did load the kernel and the plugins: the recorder sees what a run loads.
  assert.ok(loaded.some((url) => url.endsWith('/packages/kernel/dist/kernel.js')));
  assert.deepEqual(
    loaded.filter((url) => HEAVY.test(url) || ON_DEMAND.test(url)),
    [],
  );
});
