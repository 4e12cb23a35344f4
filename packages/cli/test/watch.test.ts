import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, renameSync, watch, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { agentest, fixture, jsonl, readJsonl } from './helpers.js';

const CASES = [
  { id: 'T1', input: 'hello one', assert: { type: 'contains', value: 'hello' } },
  { id: 'T2', input: 'hello two', assert: { type: 'contains', value: 'hello' } },
  { id: 'T3', input: 'bye', assert: { type: 'contains', value: 'hello' } },
];

/** The CLI's stdout as it arrives, and a way to wait until it has printed something `count` times. */
function follow(child: ChildProcess) {
  let stdout = '';
  const waiting: { marker: string; count: number; resolve: () => void }[] = [];
  const check = () => {
    for (const wait of [...waiting])
      if (stdout.split(wait.marker).length - 1 >= wait.count) {
        waiting.splice(waiting.indexOf(wait), 1);
        wait.resolve();
      }
  };
  child.stdout!.on('data', (data) => {
    stdout += data;
    check();
  });
  return {
    text: () => stdout,
    /** Resolves once `marker` has appeared `count` times; the CLI's own hang deadline catches a hang. */
    until: (marker: string, count: number) =>
      new Promise<void>((resolve) => {
        waiting.push({ marker, count, resolve });
        check();
      }),
  };
}

/**
 * Saves as vim, JetBrains' safe write and many formatters do: a temporary file renamed over the original. The
 * tests save this way so that the watch never reads a half-written file (a plain write truncates first).
 */
function saveByRename(path: string, text: string): void {
  writeFileSync(`${path}.tmp`, text);
  renameSync(`${path}.tmp`, path);
}

/** `agentest <args>` in `cwd`, followed: its stdout as it arrives (`follow`), its stderr so far, and its end. */
function watching(args: string[], cwd: string) {
  let child!: ChildProcess;
  let stderr = '';
  const exited = agentest(args, {
    cwd,
    onSpawn: (spawned) => {
      child = spawned;
      child.stderr!.on('data', (data) => (stderr += data));
    },
  });
  return { child, out: follow(child), stderr: () => stderr, exited };
}

/** The part of the output after the `n`th watch prompt. */
function after(text: string, n: number): string {
  return text.split('Watching for changes').slice(n).join('Watching for changes');
}

test('--watch reruns the changed and failed cases of a changed file, all on another change, and quits on SIGINT', async () => {
  const dir = fixture({ 'inputs.jsonl': jsonl(CASES) });
  let child!: ChildProcess;
  const exited = agentest(['test', '-i', 'inputs.jsonl', '-n', 'echo', '-o', 'run.jsonl', '--watch'], {
    cwd: dir,
    onSpawn: (spawned) => (child = spawned),
  });
  const out = follow(child);
  await out.until('Watching for changes', 1);
  assert.match(out.text(), /Total: +3\b/);
  assert.match(out.text(), /press Ctrl-C to quit/, 'stdin is not a terminal: no keys offered');

  // T2's input changes; T3 failed last time: those two run, T1 does not.
  saveByRename(join(dir, 'inputs.jsonl'), jsonl([CASES[0]!, { ...CASES[1]!, input: 'hello 2' }, CASES[2]!]));
  await out.until('Watching for changes', 2);
  const rerun = after(out.text(), 1);
  assert.match(rerun, /↻ inputs\.jsonl changed/);
  assert.match(rerun, /Total: +2\b/);
  assert.match(rerun, /\[T2\] hello 2/);
  assert.match(rerun, /\[T3\]/);
  assert.doesNotMatch(rerun, /\[T1\]/);
  const stream = readJsonl(readFileSync(join(dir, 'run.jsonl'), 'utf8'));
  assert.deepEqual(
    stream.filter((e) => e.type === 'result').map((e) => e.id),
    ['T2', 'T3'],
    'the same kernel and reporters wrote the rerun',
  );

  // Saving the file unchanged reruns only the case that failed.
  saveByRename(join(dir, 'inputs.jsonl'), jsonl([CASES[0]!, { ...CASES[1]!, input: 'hello 2' }, CASES[2]!]));
  await out.until('Watching for changes', 3);
  const resave = after(out.text(), 2);
  assert.match(resave, /Total: +1\b/);
  assert.match(resave, /\[T3\]/);
  assert.doesNotMatch(resave, /\[T[12]\]/);

  // A file no case comes from (a prompt, a hook): which cases use it is unknown, so all run.
  saveByRename(join(dir, 'prompts.yml'), '- role: system\n  content: be brief\n');
  await out.until('Watching for changes', 4);
  const other = after(out.text(), 3);
  assert.match(other, /↻ prompts\.yml changed/);
  assert.match(other, /Total: +3\b/);

  child.kill('SIGINT');
  const run = await exited;
  assert.equal(run.code, 1, `the last run had a failure: ${run.stderr}`);
  assert.equal(run.signal, null);
  assert.equal(run.stderr, '');
});

test('--watch: a change that touches no case runs nothing, and a broken line is shown until fixed', async () => {
  const passing = CASES.slice(0, 2);
  const dir = fixture({ 'inputs.jsonl': jsonl(passing) });
  let child!: ChildProcess;
  const exited = agentest(['test', '-i', 'inputs.jsonl', '-n', 'echo', '--no-jsonl', '--watch'], {
    cwd: dir,
    onSpawn: (spawned) => (child = spawned),
  });
  const out = follow(child);
  await out.until('Watching for changes', 1);
  saveByRename(join(dir, 'inputs.jsonl'), '\n' + jsonl(passing));
  await out.until('Watching for changes', 2);
  assert.match(after(out.text(), 1), /No case is affected\./);
  assert.doesNotMatch(after(out.text(), 1), /Total:/);

  let stderr = '';
  child.stderr!.on('data', (data) => (stderr += data));
  saveByRename(join(dir, 'inputs.jsonl'), jsonl(passing) + '{"id": "T9", "input": \n');
  await out.until('Watching for changes', 3);
  assert.match(stderr, /error\[INPUT_INVALID\]: inputs\.jsonl:3: invalid JSON/);
  saveByRename(join(dir, 'inputs.jsonl'), jsonl([...passing, { id: 'T9', input: 'hello nine' }]));
  await out.until('Watching for changes', 4);
  assert.match(after(out.text(), 3), /Total: +1\b/);
  assert.match(after(out.text(), 3), /\[T9\]/);

  child.kill('SIGINT');
  const run = await exited;
  assert.equal(run.code, 0, run.stderr);
});

test('--watch follows the one suite a config lists, and refuses a config that lists several', async () => {
  const two = fixture({
    'a.jsonl': jsonl(CASES.slice(0, 1)),
    'b.jsonl': jsonl(CASES.slice(1, 2)),
    'agentest.config.mjs': `export default { test: { suites: ['a.jsonl', 'b.jsonl'] } };\n`,
  });
  const refused = await agentest(['test', '-n', 'echo', '--watch'], { cwd: two });
  assert.equal(refused.code, 2);
  assert.match(refused.stderr, /--watch follows one suite, but the config lists 2; choose one with -i/);

  const one = fixture({
    'inputs.jsonl': jsonl(CASES.slice(0, 2)),
    'agentest.config.mjs': `export default { test: { suites: [{ input: 'inputs.jsonl', agent: 'echo' }] } };\n`,
  });
  let child!: ChildProcess;
  const exited = agentest(['test', '--no-jsonl', '--watch'], { cwd: one, onSpawn: (spawned) => (child = spawned) });
  const out = follow(child);
  await out.until('Watching for changes', 1);
  assert.match(out.text(), /Total: +2\b/);
  saveByRename(join(one, 'inputs.jsonl'), jsonl([CASES[0]!, { ...CASES[1]!, input: 'hello 2' }]));
  await out.until('Watching for changes', 2);
  assert.match(after(out.text(), 1), /\[T2\] hello 2/);
  assert.doesNotMatch(after(out.text(), 1), /\[T1\]/);
  child.kill('SIGINT');
  const run = await exited;
  assert.equal(run.code, 0, run.stderr);
});

/** A config whose one agent, `bot`, answers `reply`. */
const config = (reply: string) =>
  `export default { agents: { bot: { async run() { return { content: ${JSON.stringify(reply)}, text: ${JSON.stringify(reply)} }; } } } };\n`;

test('--watch sets the run up again when the config changes, and waits out a config that does not load', async () => {
  const dir = fixture({ 'agentest.config.mjs': config('hello A'), 'inputs.jsonl': jsonl(CASES.slice(0, 2)) });
  const { child, out, stderr, exited } = watching(
    ['test', '-i', 'inputs.jsonl', '-n', 'bot', '--no-jsonl', '--watch'],
    dir,
  );
  await out.until('Watching for changes', 1);
  assert.match(out.text(), /Passed: +2\b/);

  saveByRename(join(dir, 'agentest.config.mjs'), config('bye'));
  await out.until('Watching for changes', 2);
  assert.match(after(out.text(), 1), /↻ agentest\.config\.mjs changed/);
  assert.match(after(out.text(), 1), /Failed: +2\b/, 'the new config’s agent answered');

  saveByRename(join(dir, 'agentest.config.mjs'), 'export default {\n');
  await out.until('Watching for changes', 3);
  assert.match(stderr(), /error\[CONFIG_LOAD_FAILED\]/);

  saveByRename(join(dir, 'agentest.config.mjs'), config('hello again'));
  await out.until('Watching for changes', 4);
  assert.match(after(out.text(), 3), /Passed: +2\b/);

  child.kill('SIGINT');
  const run = await exited;
  assert.equal(run.code, 0, stderr());
});

test('--watch sets the run up again when a base config the config extends changes, in a folder of its own', async () => {
  const dir = fixture({
    'shared/base.config.mjs': config('hello A'),
    'app/agentest.config.mjs': `export default { extends: '../shared/base.config.mjs' };\n`,
    'app/inputs.jsonl': jsonl(CASES.slice(0, 2)),
  });
  const { child, out, stderr, exited } = watching(
    ['test', '-i', 'inputs.jsonl', '-n', 'bot', '--no-jsonl', '--watch'],
    join(dir, 'app'),
  );
  await out.until('Watching for changes', 1);
  assert.match(out.text(), /Passed: +2\b/);

  saveByRename(join(dir, 'shared/base.config.mjs'), config('bye'));
  await out.until('Watching for changes', 2);
  assert.match(after(out.text(), 1), /↻ .*shared\/base\.config\.mjs changed/);
  assert.match(after(out.text(), 1), /Failed: +2\b/, 'the new base config’s agent answered');

  child.kill('SIGINT');
  const run = await exited;
  assert.equal(run.code, 1, stderr());
});

test('--watch sees every save an editor makes by renaming a temporary file over the original', async () => {
  const dir = fixture({
    'shared/base.config.mjs': config('hello A'),
    'app/agentest.config.mjs': `export default { extends: '../shared/base.config.mjs' };\n`,
    'app/suites/inputs.jsonl': jsonl(CASES.slice(0, 2)),
  });
  const { child, out, stderr, exited } = watching(
    ['test', '-i', 'suites/inputs.jsonl', '-n', 'bot', '--no-jsonl', '--watch'],
    join(dir, 'app'),
  );
  await out.until('Watching for changes', 1);

  // A case file in a folder below the config's, saved twice: the second save is seen too, and the temporary
  // file is no change.
  saveByRename(join(dir, 'app/suites/inputs.jsonl'), jsonl([CASES[0]!, { ...CASES[1]!, input: 'hello 2' }]));
  await out.until('Watching for changes', 2);
  assert.match(after(out.text(), 1), /↻ suites\/inputs\.jsonl changed\n/);
  assert.match(after(out.text(), 1), /\[T2\] hello 2/);
  saveByRename(join(dir, 'app/suites/inputs.jsonl'), jsonl([CASES[0]!, { ...CASES[1]!, input: 'hello 3' }]));
  await out.until('Watching for changes', 3);
  assert.match(after(out.text(), 2), /↻ suites\/inputs\.jsonl changed\n/);
  assert.match(after(out.text(), 2), /\[T2\] hello 3/);
  assert.doesNotMatch(after(out.text(), 2), /\[T1\]/);

  // A base config in a folder of its own, saved twice the same way.
  saveByRename(join(dir, 'shared/base.config.mjs'), config('bye'));
  await out.until('Watching for changes', 4);
  assert.match(after(out.text(), 3), /Failed: +2\b/);
  saveByRename(join(dir, 'shared/base.config.mjs'), config('hello again'));
  await out.until('Watching for changes', 5);
  assert.match(after(out.text(), 4), /↻ .*shared\/base\.config\.mjs changed\n/);
  assert.match(after(out.text(), 4), /Passed: +2\b/);

  child.kill('SIGINT');
  const run = await exited;
  assert.equal(run.code, 0, stderr());
});

/** Resolves once `name` exists in `dir`: watched, so that the test waits on the event, not on a timer. */
function created(dir: string, name: string): Promise<void> {
  return new Promise((resolve) => {
    const watcher = watch(dir, () => {
      if (!existsSync(join(dir, name))) return;
      watcher.close();
      resolve();
    });
    if (existsSync(join(dir, name))) {
      watcher.close();
      resolve();
    }
  });
}

test('--watch reads again a file that changed while it was read, instead of showing the error of half a file', async () => {
  const dir = fixture({ 'agentest.config.mjs': config('hello A'), 'inputs.jsonl': jsonl(CASES.slice(0, 2)) });
  const { child, out, stderr, exited } = watching(
    ['test', '-i', 'inputs.jsonl', '-n', 'bot', '--no-jsonl', '--watch'],
    dir,
  );
  await out.until('Watching for changes', 1);
  assert.match(out.text(), /Passed: +2\b/);

  // A save caught half-way: the config the run reads fails to load, and by the time it has failed the file
  // has been written again. It tells the test it is being read, then waits for the second write to land.
  const halfWritten = [
    "import { existsSync, watch, writeFileSync } from 'node:fs';",
    "writeFileSync('.reading', '');",
    'await new Promise((resolve) => {',
    "  const done = () => existsSync('.written') && (watcher.close(), resolve());",
    "  const watcher = watch('.', done);",
    '  done();',
    '});',
    "throw new Error('Unexpected end of input');",
  ].join('\n');
  saveByRename(join(dir, 'agentest.config.mjs'), halfWritten);
  await created(dir, '.reading');
  saveByRename(join(dir, 'agentest.config.mjs'), config('hello again'));
  writeFileSync(join(dir, '.written'), '');
  await out.until('Watching for changes', 2);
  assert.match(after(out.text(), 1), /↻ agentest\.config\.mjs changed\n/);
  assert.match(after(out.text(), 1), /Passed: +2\b/, 'the config as saved loaded');
  assert.doesNotMatch(stderr(), /CONFIG_LOAD_FAILED/, 'the error of the half-read file is not shown');

  child.kill('SIGINT');
  const run = await exited;
  assert.equal(run.code, 0, stderr());
});
