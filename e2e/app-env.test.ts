/**
 * `-a` (the Yao app root) and `-e` (the environment file) of `agentest test`, as `yao agent test` has
 * them: the app's `.env` is loaded before the config (which reads it here to set `test.parallel`, shown
 * on the start event), `-e` loads another file instead and overrides what is already set, an app without
 * a `.env` loads none, an `-e` that cannot be loaded is refused (Yao ignores it), and the root comes from
 * `-a`, else `$YAO_ROOT`, else `app.yao` up from the input.
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from './helpers/cli.js';
import { readEvents } from './helpers/events.js';
import { workspace, writeCases } from './helpers/workspace.js';

let dir: string;

/** An app folder with a marker file, a `.env` setting AGENTEST_PARALLEL, and a suite whose config reads it. */
function app(name: string, marker: string, parallel: number): string {
  const root = join(dir, name);
  mkdirSync(join(root, 'tests'), { recursive: true });
  writeFileSync(join(root, marker), '{}\n');
  writeFileSync(join(root, '.env'), `# the app's environment\nAGENTEST_PARALLEL=${parallel}\n`);
  return root;
}

before(() => {
  dir = workspace('app-env');
  app('shop', 'app.yao', 3);
  app('other', 'app.json', 4);
  writeCases(join(dir, 'shop', 'tests'), 'cases.jsonl', [
    { id: 'T1', input: 'hi', assert: { type: 'contains', value: 'hi' } },
  ]);
  // The config reads the environment when it loads: the start event's `parallel` shows what it saw.
  writeFileSync(
    join(dir, 'shop', 'tests', 'agentest.config.mjs'),
    'export default { test: { parallel: Number(process.env.AGENTEST_PARALLEL || 1) } };\n',
  );
  writeFileSync(join(dir, 'test.env'), 'AGENTEST_PARALLEL=5\n');
});

async function parallelSeen(args: string[], env: NodeJS.ProcessEnv = {}): Promise<number> {
  const out = join(dir, `run-${Math.random().toString(36).slice(2)}.jsonl`);
  const result = await runCli(['test', '-i', 'shop/tests/cases.jsonl', '-n', 'echo', '-o', out, ...args], {
    cwd: dir,
    env: { AGENTEST_PARALLEL: '', YAO_ROOT: '', ...env },
  });
  assert.equal(result.code, 0, result.stderr);
  return readEvents(out).find((e) => e.type === 'start')!.parallel as number;
}

test('without -a and -e, the .env of the app found up from the input (app.yao) is loaded', async () => {
  assert.equal(await parallelSeen([]), 3);
});

test('-e loads that file instead, against the working directory, overriding a variable already set', async () => {
  assert.equal(await parallelSeen(['-e', 'test.env'], { AGENTEST_PARALLEL: '7' }), 5);
  assert.equal(await parallelSeen(['--env', 'test.env']), 5);
});

test('an app without a .env loads none, as in Yao', async () => {
  rmSync(join(dir, 'other', '.env'));
  try {
    assert.equal(await parallelSeen(['-a', 'other'], { AGENTEST_PARALLEL: '7' }), 7);
  } finally {
    writeFileSync(join(dir, 'other', '.env'), 'AGENTEST_PARALLEL=4\n');
  }
});

test('-e naming a missing file, a folder or a file that cannot be read stops the run with exit 2, naming -e', async () => {
  // A link to itself cannot be read by anyone, root included (a file without read permission can be, by root).
  symlinkSync('loop.env', join(dir, 'loop.env'));
  const refusals: [string, RegExp][] = [
    ['missing.env', /-e missing\.env: .*missing\.env does not exist; give a file of KEY=value lines/],
    ['shop', /-e shop: .*shop is a folder; give the environment file in it \(e\.g\. -e shop\/\.env\)/],
    ['loop.env', /-e loop\.env: could not read .*loop\.env: ELOOP/],
  ];
  for (const [file, message] of refusals) {
    const out = join(dir, `refused-${file}.jsonl`);
    const result = await runCli(['test', '-i', 'shop/tests/cases.jsonl', '-n', 'echo', '-o', out, '-e', file], {
      cwd: dir,
    });
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /^error\[FLAG_INVALID\]: /);
    assert.match(result.stderr, message);
    assert.equal(existsSync(out), false, 'no case ran');
  }
});

test('-a, else $YAO_ROOT, chooses the app whose .env is loaded', async () => {
  assert.equal(await parallelSeen(['-a', 'other']), 4);
  assert.equal(await parallelSeen([], { YAO_ROOT: join(dir, 'other') }), 4);
  assert.equal(await parallelSeen(['--app', 'shop'], { YAO_ROOT: join(dir, 'other') }), 3, '-a wins over $YAO_ROOT');
});

test('-a naming no folder stops the run before any case with exit 2, naming -a', async () => {
  const result = await runCli(['test', '-i', 'shop/tests/cases.jsonl', '-n', 'echo', '-a', 'nowhere'], { cwd: dir });
  assert.equal(result.code, 2, result.stderr);
  assert.match(result.stderr, /-a nowhere: .*nowhere is not a folder/);
});

test("-a is the app where assistants resolve: the example app's assistant answers from another folder", async () => {
  const exampleApp = join(import.meta.dirname, '..', 'examples', 'app');
  const ask = (args: string[]) => runCli(['test', '-i', 'find the keywords', '-n', 'keyword', ...args], { cwd: dir });
  const without = await ask([]);
  assert.equal(without.code, 2, 'no app above the working directory: the assistant is not found');
  const withApp = await ask(['-a', exampleApp]);
  assert.equal(withApp.code, 0, withApp.stderr);
  assert.match(withApp.stdout, /keywords/);
});
