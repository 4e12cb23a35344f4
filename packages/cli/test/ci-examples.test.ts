/**
 * The ready-made CI setups in examples/ci: each is valid YAML, every agentest command in it parses with
 * the CLI's own commander program and flag checks, and the shard each job runs, given the variables its
 * CI sets, is the one the CLI chooses: job k of N runs shard k/N. docs/scale.md shows each file as it is.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { CommanderError } from 'commander';
import { parseAllDocuments } from 'yaml';
import { parseFlags, type RawFlags } from '../src/flags.js';
import { createProgram } from '../src/program.js';
import { chooseShard } from '../src/shard/choose-shard.js';

const root = new URL('../../../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), 'utf8');

/** One agentest command line: its subcommand and the options commander parsed, or why it did not parse. */
interface ParsedCommand {
  argv: string[];
  command: string;
  options: Record<string, unknown>;
}

/** Parses `argv` (after `agentest`) with the real program, its actions replaced so nothing runs. */
async function parseCommand(argv: string[]): Promise<ParsedCommand> {
  const io = { cwd: process.cwd(), env: {}, stdout: process.stdout, stderr: process.stderr };
  const program = createProgram('0.0.0', io, () => {}).configureOutput({ writeErr: () => {}, outputError: () => {} });
  let parsed: ParsedCommand | undefined;
  for (const sub of program.commands)
    sub.exitOverride().action(() => (parsed = { argv, command: sub.name(), options: sub.opts() }));
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) assert.fail(`agentest ${argv.join(' ')}: ${error.message}`);
    throw error;
  }
  assert.ok(parsed, `agentest ${argv.join(' ')}: no command ran`);
  return parsed;
}

/** Words of a shell line, quotes removed, with `&&`, `||`, `;`, `|` and newlines as words of their own. */
function shellWords(line: string): string[] {
  const words: string[] = [];
  const pattern = /[ \t]*(?:(&&|\|\||[;|\n])|((?:'[^']*'|"(?:\\.|[^"])*"|[^\s;&|'"])+))/gy;
  for (let match = pattern.exec(line); match; match = pattern.exec(line))
    words.push(match[1] ?? match[2]!.replace(/'([^']*)'|"((?:\\.|[^"])*)"/g, '$1$2'));
  return words;
}

const OPERATORS = new Set(['&&', '||', ';', '|', '\n']);
const LEADERS = new Set(['npx', 'exec', 'then', 'else', 'do']);

/** Every `agentest …` / `npx agentest …` command in a shell script, as its arguments after `agentest`. */
function agentestCommands(script: string): string[][] {
  const commands: string[][] = [];
  let current: string[] = [];
  for (const word of [...shellWords(script.replace(/\\\n/g, ' ')), ';']) {
    if (!OPERATORS.has(word)) {
      current.push(word);
      continue;
    }
    const at = current.indexOf('agentest');
    // A bare `agentest` is a name (a job, a key), not a command.
    if (at >= 0 && at < current.length - 1 && current.slice(0, at).every((w) => LEADERS.has(w)))
      commands.push(current.slice(at + 1));
    current = [];
  }
  return commands;
}

/** GitHub's `${{ … }}` filled in as the runner would: only the expressions this test knows. */
function githubExpressions(text: string, values: Record<string, string>): string {
  return text.replace(/\$\{\{\s*([^}]*?)\s*\}\}/g, (_, expression: string) => {
    assert.ok(expression in values, `a GitHub expression this test knows: ${expression}`);
    return values[expression]!;
  });
}

/** Every agentest command in a YAML document: in scripts (strings) and in exec-form commands (string lists). */
function commandsIn(value: unknown, github: Record<string, string>): string[][] {
  if (typeof value === 'string') return agentestCommands(githubExpressions(value, github));
  if (Array.isArray(value)) {
    const words = value.filter((v) => typeof v === 'string');
    const at = words.indexOf('agentest');
    const isCommand = at >= 0 && at < words.length - 1 && words.slice(0, at).every((w) => LEADERS.has(w));
    if (words.length === value.length && isCommand) return [words.slice(at + 1)];
    return value.flatMap((v) => commandsIn(v, github));
  }
  if (value && typeof value === 'object') return Object.values(value).flatMap((v) => commandsIn(v, github));
  return [];
}

function documents(file: string): Record<string, any>[] {
  const docs = parseAllDocuments(read(`examples/ci/${file}`));
  for (const doc of docs) assert.deepEqual(doc.errors, [], `${file} is valid YAML`);
  return docs.map((doc) => doc.toJS() as Record<string, any>);
}

/** Shell variables stand for what the machine fills in at run time (`$RUN_ID`, `$((…))`). */
function withoutVariables(argv: string[]): string[] {
  return argv.map((word) => word.replace(/\$\(\([^)]*\)\)|\$\{?[A-Za-z_][A-Za-z0-9_]*\}?/g, 'x'));
}

/** Parses a file's commands; checks the shard each `test` that starts a shard (not a resume) chooses. */
async function checkFile(
  file: string,
  shardJobs: {
    total: number;
    env: (index: number) => NodeJS.ProcessEnv;
    github?: (index: number) => Record<string, string>;
  },
): Promise<ParsedCommand[]> {
  const commands = async (index: number) => {
    const argvs = documents(file).flatMap((doc) => commandsIn(doc, shardJobs.github?.(index) ?? {}));
    const parsed: ParsedCommand[] = [];
    for (const argv of argvs) parsed.push(await parseCommand(withoutVariables(argv)));
    return parsed;
  };
  const parsed = await commands(1);
  assert.ok(parsed.length > 0, `${file} runs agentest`);
  assert.ok(
    parsed.some((c) => c.command === 'merge'),
    `${file} merges the blobs`,
  );
  const starts = (all: ParsedCommand[]) => all.filter((c) => c.command === 'test' && c.options.resume === undefined);
  assert.ok(starts(parsed).length > 0, `${file} starts the shards`);
  for (let index = 1; index <= shardJobs.total; index++)
    for (const command of starts(await commands(index))) {
      const shard = chooseShard(parseFlags(command.options as RawFlags), shardJobs.env(index));
      assert.deepEqual(
        shard && { index: shard.index, total: shard.total },
        { index, total: shardJobs.total },
        `${file}: job ${index} of ${shardJobs.total} runs shard ${index}/${shardJobs.total} (${shard?.source})`,
      );
    }
  return parsed;
}

test('GitHub Actions: a matrix passes --shard from strategy.job-index, fail-fast off, and a merge job that runs anyway', async () => {
  const [workflow] = documents('github-actions.yml');
  const shardJob = workflow!.jobs.shard;
  assert.equal(shardJob.strategy['fail-fast'], false);
  const total = shardJob.strategy.matrix.shard.length;
  await checkFile('github-actions.yml', {
    total,
    env: () => ({}),
    github: (index) => ({
      'strategy.job-index + 1': String(index),
      'strategy.job-index': String(index - 1),
      'strategy.job-total': String(total),
      'secrets.OPENAI_API_KEY': 'x',
      '!cancelled()': 'true',
    }),
  });
  assert.equal(workflow!.jobs.merge.needs, 'shard');
  assert.match(workflow!.jobs.merge.if, /!cancelled\(\)/);
  // upload-artifact (v4.4 on) silently leaves out hidden folders such as .agentest: no blob would reach the merge.
  const uploads = shardJob.steps.filter((step: { uses?: string }) => step.uses?.startsWith('actions/upload-artifact'));
  assert.ok(uploads.length > 0, 'the shard job uploads its blob');
  for (const upload of uploads)
    if (/(^|\/)\.[^./]/.test(upload.with.path))
      assert.equal(upload.with['include-hidden-files'], true, `${upload.with.path} is hidden: include-hidden-files`);
});

test('GitLab CI: parallel jobs choose their shard from CI_NODE_INDEX/CI_NODE_TOTAL', async () => {
  const [pipeline] = documents('gitlab-ci.yml');
  const total = pipeline!.agentest.parallel;
  await checkFile('gitlab-ci.yml', {
    total,
    env: (index) => ({ CI_NODE_INDEX: String(index), CI_NODE_TOTAL: String(total) }),
  });
  assert.equal(pipeline!['agentest-merge'].when, 'always');
});

test('Buildkite: parallel jobs choose their shard from BUILDKITE_PARALLEL_JOB, counted from 0', async () => {
  const [pipeline] = documents('buildkite.yml');
  const total = pipeline!.steps[0].parallelism;
  await checkFile('buildkite.yml', {
    total,
    env: (index) => ({ BUILDKITE_PARALLEL_JOB: String(index - 1), BUILDKITE_PARALLEL_JOB_COUNT: String(total) }),
  });
  assert.equal(pipeline!.steps[1].continue_on_failure, true);
});

test('CircleCI: parallelism chooses the shard from CIRCLE_NODE_INDEX, counted from 0', async () => {
  const [config] = documents('circleci.yml');
  const total = config!.jobs.agentest.parallelism;
  await checkFile('circleci.yml', {
    total,
    env: (index) => ({ CIRCLE_NODE_INDEX: String(index - 1), CIRCLE_NODE_TOTAL: String(total) }),
  });
  assert.deepEqual(config!.workflows.agentest.jobs[1]['agentest-merge'].requires, ['agentest']);
});

test('Kubernetes: an Indexed Job of N completions, the same N as AGENTEST_SHARD_TOTAL, retried per index with --resume', async () => {
  const [claim, shards, merge] = documents('k8s-indexed-job.yaml');
  assert.equal(claim!.kind, 'PersistentVolumeClaim');
  const spec = shards!.spec;
  assert.equal(spec.completionMode, 'Indexed');
  assert.equal(spec.parallelism, spec.completions);
  assert.ok(spec.backoffLimitPerIndex > 0);
  const container = spec.template.spec.containers[0];
  const env = Object.fromEntries(
    container.env.filter((e: { value?: string }) => e.value !== undefined).map((e: any) => [e.name, e.value]),
  );
  const parsed = await checkFile('k8s-indexed-job.yaml', {
    total: spec.completions,
    env: (index) => ({ ...env, JOB_COMPLETION_INDEX: String(index - 1) }),
  });
  assert.ok(
    parsed.some((c) => c.command === 'test' && c.options.resume !== undefined),
    'a retry resumes its blob',
  );
  assert.ok(
    parsed.some((c) => c.command === 'test' && c.options.blobDir === '/blobs'),
    'blobs go to the volume',
  );
  for (const job of [shards!, merge!])
    assert.equal(job.spec.template.spec.volumes[0].persistentVolumeClaim.claimName, claim!.metadata.name);
  assert.equal(merge!.spec.suspend, true);
});

test('Kubernetes: the commands at the top wait for each Job to end, whether it succeeded or failed', () => {
  const commands = read('examples/ci/k8s-indexed-job.yaml')
    .split('\n')
    .filter((line) => /^#\s+(until|kubectl)\b/.test(line));
  assert.ok(commands.length > 0, 'the file says how to run it');
  for (const line of commands) {
    // A Job's status leaves `active` out at 0, so a wait for active=0 never ends; a failed Job is never complete.
    assert.doesNotMatch(line, /\.status\.active/, line);
    assert.doesNotMatch(line, /--for=condition=complete/i, line);
  }
  for (const job of ['agentest-shards', 'agentest-merge'])
    assert.ok(
      commands.some((line) => line.includes(`job ${job}`) && /Complete\|Failed/.test(line)),
      `waits until ${job} is Complete or Failed`,
    );
});

test('docs/scale.md shows every setup exactly as the file in examples/ci', () => {
  const docs = read('docs/scale.md');
  for (const file of ['github-actions.yml', 'gitlab-ci.yml', 'buildkite.yml', 'circleci.yml', 'k8s-indexed-job.yaml'])
    assert.ok(docs.includes(read(`examples/ci/${file}`)), `docs/scale.md includes examples/ci/${file}`);
});

test('the shell reading finds agentest behind npx, exec and operators, and not inside quotes', () => {
  assert.deepEqual(
    agentestCommands(
      `mkdir -p out && npx agentest merge blobs -o "out/a b.xml" || echo "then agentest x"; exec agentest test -i 'c d'`,
    ),
    [
      ['merge', 'blobs', '-o', 'out/a b.xml'],
      ['test', '-i', 'c d'],
    ],
  );
});
