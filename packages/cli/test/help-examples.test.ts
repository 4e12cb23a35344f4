// Every example the help prints runs as written, in the directory the README sends users to
// (examples/app): it ends in a verdict (exit 0 or 1), never in a configuration error (2) or a crash (3).
import type { ChildProcess } from 'node:child_process';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { agentest } from './helpers.js';
import { agentestInProcess } from './in-process.js';
import { envOf, exampleApp, examplesOf, isAssignment } from './help-example-lines.js';

/** The help pages whose examples are checked: the program's, and each command's that has examples to run here. */
const HELP_PAGES = [[], ['test'], ['init'], ['show-report']];

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
    const env = envOf(words);
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
