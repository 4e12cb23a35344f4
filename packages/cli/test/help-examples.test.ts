// Every example the help prints runs as written, in the directory the README sends users to
// (examples/app): it ends in a verdict (exit 0 or 1), never in a configuration error (2) or a crash (3).
import type { ChildProcess } from 'node:child_process';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { agentest } from './helpers.js';
import { agentestInProcess } from './in-process.js';

const EXAMPLE_APP = fileURLToPath(new URL('../../../examples/app', import.meta.url));
const TEST_PACKAGE = fileURLToPath(new URL('../../test', import.meta.url));
/** The help pages whose examples are checked: the program's, and each command's that has examples to run here. */
const HELP_PAGES = [[], ['test'], ['init'], ['show-report']];
/** Never a real browser from a test; `show-report` prints the path instead. */
const ENV = { BROWSER: 'none', CI: '' };

/** `$ agentest …` lines of a help page: the command without its `# comment`, split as a shell would. */
function examplesOf(help: string): { line: string; words: string[] }[] {
  return [...help.matchAll(/^ {2}\$ (.+?)(?:\s+#.*)?$/gm)].map(([, line]) => ({
    line: line!,
    words: shellWords(line!),
  }));
}

/** Words of a command line: whitespace-separated, with "double" and 'single' quotes grouping. */
function shellWords(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map(([, double, single, bare]) => double ?? single ?? bare!);
}

/** A fresh copy of the example app, with `@agentest/test` resolvable as it is after `npm install`. */
function exampleApp(): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'agentest-help-')), 'app');
  cpSync(EXAMPLE_APP, dir, {
    recursive: true,
    // Not what runs in examples/app write meanwhile: reports, the history, a file still being written (*.tmp).
    filter: (src) => !/^(output-|\.agentest$|node_modules$)|\.tmp$/.test(basename(src)),
  });
  mkdirSync(join(dir, 'node_modules', '@agentest'), { recursive: true });
  symlinkSync(TEST_PACKAGE, join(dir, 'node_modules', '@agentest', 'test'), 'dir');
  return dir;
}

const pages = await Promise.all(
  HELP_PAGES.map(async (page) => {
    const help = await agentestInProcess([...page, '--help'], { cwd: process.cwd() });
    assert.equal(help.code, 0, help.stderr);
    return { page, examples: examplesOf(help.stdout) };
  }),
);

test('the help pages have examples to check', () => {
  const count = (name: string) => pages.find((p) => p.page.join(' ') === name)?.examples.length ?? 0;
  assert.ok(count('test') >= 5, 'agentest test --help');
  assert.ok(count('init') >= 2, 'agentest init --help');
  assert.ok(count('show-report') >= 2, 'agentest show-report --help');
});

for (const { page, examples } of pages) {
  for (const { line, words } of examples) {
    const env = { ...ENV, ...Object.fromEntries(words.filter(isAssignment).map((w) => w.split(/=(.*)/s).slice(0, 2))) };
    const [command, ...args] = words.filter((w) => !isAssignment(w));
    test(`agentest ${page.join(' ')} --help: ${line}`, async () => {
      assert.equal(command, 'agentest', 'an example is an agentest command line');
      const dir = exampleApp();
      // A report to show is there once a suite has run; show-report's examples assume one.
      if (args[0] === 'show-report') {
        const run = await agentest(['test', '-i', 'assistants/keyword/tests/inputs.jsonl', '--runs', '1'], {
          cwd: dir,
        });
        assert.ok(run.code === 0 || run.code === 1, run.stderr);
      }
      const run = await agentest(args, {
        cwd: dir,
        env,
        onSpawn: args.includes('--watch') ? quitWhenWatching : undefined,
      });
      assert.ok(
        run.code === 0 || run.code === 1,
        `exit ${run.code}, expected a verdict (0 or 1)\nstdout:\n${run.stdout.slice(-3000)}\nstderr:\n${run.stderr.slice(-3000)}`,
      );
    });
  }
}

/** `--watch` runs until told to stop: quit (SIGINT) once its first run is over and it waits for changes. */
function quitWhenWatching(child: ChildProcess): void {
  let stdout = '';
  child.stdout!.on('data', (data) => {
    stdout += data;
    if (stdout.includes('Watching for changes')) child.kill('SIGINT');
  });
}

function isAssignment(word: string): boolean {
  return /^[A-Z_][A-Z0-9_]*=/.test(word);
}
