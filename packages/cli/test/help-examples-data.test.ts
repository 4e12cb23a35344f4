// The examples of `merge --help`, `compare --help` and `history --help` run as written, in a copy of examples/app
// holding what a user has by then: the blobs of a sharded run, the reports of two runs, a recorded history. Each is
// made the way a user makes it, by `agentest test` runs of the example app's keyword suite.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { agentest, type CliRun } from './helpers.js';
import { agentestInProcess } from './in-process.js';
import { envOf, exampleApp, examplesOf, isAssignment } from './help-example-lines.js';

const SUITE = ['-i', 'assistants/keyword/tests/inputs.jsonl', '--runs', '1'];
const SHARDS = 2;

/** Runs the suite in `dir` with these flags added; a run's verdict is 0 or 1. */
async function runSuite(dir: string, flags: string[]): Promise<void> {
  assertVerdict(await agentest(['test', ...SUITE, ...flags], { cwd: dir }), `agentest test ${flags.join(' ')}`);
}

/** Every shard of one sharded run, written into `blobDir` (the default one when it is .agentest/blobs). */
async function shardedRun(dir: string, blobDir: string, runId?: string): Promise<void> {
  const where = blobDir.replace(/\/$/, '') === '.agentest/blobs' ? [] : ['--blob-dir', blobDir];
  const id = runId ? ['--run-id', runId] : [];
  for (let shard = 1; shard <= SHARDS; shard++) await runSuite(dir, ['--shard', `${shard}/${SHARDS}`, ...where, ...id]);
}

/** What each command's examples read, made in `dir` from the example's own arguments. */
const PREPARE: Record<string, (dir: string, args: string[]) => Promise<void>> = {
  // `merge <blob-dir> [--run-id <id>]`: the shards of that run, and with --run-id a second run's shards beside them.
  async merge(dir, [, blobDir, ...rest]) {
    const runId = rest[rest.indexOf('--run-id') + 1];
    if (!rest.includes('--run-id')) return shardedRun(dir, blobDir!);
    await shardedRun(dir, blobDir!, runId);
    await shardedRun(dir, blobDir!, `${runId}-rerun`);
  },
  // `compare <base> <head>`: the two reports, each written by a run of the suite.
  async compare(dir, [, base, head]) {
    await runSuite(dir, ['-o', base!]);
    await runSuite(dir, ['-o', head!]);
  },
  // `history …`: two recorded runs of the suite, so that a case has outcomes over time.
  async history(dir) {
    await runSuite(dir, []);
    await runSuite(dir, []);
  },
};

const pages = await Promise.all(
  Object.keys(PREPARE).map(async (command) => {
    const help = await agentestInProcess([command, '--help'], { cwd: process.cwd() });
    assert.equal(help.code, 0, help.stderr);
    return { command, examples: examplesOf(help.stdout) };
  }),
);

test('the merge, compare and history help pages have examples to check', () => {
  for (const { command, examples } of pages) assert.ok(examples.length >= 3, `agentest ${command} --help`);
});

for (const { command, examples } of pages) {
  for (const { line, words } of examples) {
    const [program, ...args] = words.filter((w) => !isAssignment(w));
    test(`agentest ${command} --help: ${line}`, async () => {
      assert.equal(program, 'agentest', 'an example is an agentest command line');
      assert.equal(args[0], command, `an example of agentest ${command} --help runs agentest ${command}`);
      const dir = exampleApp();
      await PREPARE[command]!(dir, args);
      assertVerdict(await agentest(args, { cwd: dir, env: envOf(words) }), line);
    });
  }
}

/** A verdict (exit 0 or 1), never a configuration error (2) or a crash (3), and no stack trace. */
function assertVerdict(run: CliRun, line: string): void {
  const shown = `${line}: exit ${run.code}\nstdout:\n${run.stdout.slice(-3000)}\nstderr:\n${run.stderr.slice(-3000)}`;
  assert.ok(run.code === 0 || run.code === 1, `expected a verdict (0 or 1), ${shown}`);
  assert.doesNotMatch(run.stderr, /^\s+at .+:\d+:\d+\)?$/m, `a stack trace on stderr, ${shown}`);
}
