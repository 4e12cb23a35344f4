import { dirname, relative } from 'node:path';
import { AgentestError, isAgentestError } from '@agentest/kernel';
import { loadConfig, type LoadedConfig } from './config/load-config.js';
import { normaliseConfig } from './config/normalise-config.js';
import type { RawFlags } from './flags.js';
import { exitCodeOf, formatError, withCommandHelp } from './print-error.js';
import { runTest, type CliIo } from './run-test.js';

/** One suite to run: the `-i` input and `-n` agent, in `dir`, with the config file that listed it. */
interface ListedSuite {
  input: string;
  agent?: string;
  dir: string;
  config?: string;
  /** Where the suite is listed, e.g. `agentest.config.ts: test.suites[1]`: an error of its `-i` points there. */
  listedAt: string;
}

/**
 * `agentest test` without `-i`: the suites the config lists in `test.suites`, then those of each of its
 * `projects` (each with its own config, in its own folder), one after another. A suite that cannot start
 * is reported and the next one runs; the exit code is the worst of them, and an interrupt stops the list.
 * `--watch` and `-o` take a config that lists a single suite.
 */
export async function runListedSuites(raw: RawFlags, io: CliIo): Promise<number> {
  const loaded = await loadConfig({ cwd: io.cwd, ...(raw.config ? { file: raw.config } : {}) });
  const suites = await listSuites(io.cwd, loaded, new Set());
  if (!suites.length)
    throw new AgentestError(
      'FLAG_INVALID',
      '-i, --input is required: pass a .jsonl file, a message, scripts.<assistant>.<module>, or a directory, or list the suites to run in the config (test.suites, projects)',
      { where: '-i, --input' },
    );
  // One listed suite is what `-i` would have named: `--watch` follows it, as `-o` writes it.
  if (suites.length > 1 && raw.watch)
    throw new AgentestError(
      'FLAG_INVALID',
      `--watch follows one suite, but the config lists ${suites.length}; choose one with -i`,
      { where: '--watch' },
    );
  if (suites.length > 1 && raw.output?.length)
    throw new AgentestError(
      'FLAG_INVALID',
      `-o, --output names files for one suite, but the config lists ${suites.length}; choose one with -i`,
      { where: '-o, --output' },
    );
  let worst = 0;
  for (const suite of suites) {
    const code = await runOne(suite, raw, io);
    worst = Math.max(worst, code);
    if (code === 130) break;
  }
  return worst;
}

async function runOne(suite: ListedSuite, raw: RawFlags, io: CliIo): Promise<number> {
  const where = relative(io.cwd, suite.dir) || '.';
  const agent = raw.name ?? suite.agent;
  // `--list --json` and `--dry-run` print JSON lines on stdout, for a program to read: the header goes to stderr.
  const machineReadable = (raw.list && raw.json) || (raw.dryRun && !raw.output?.length);
  (machineReadable ? io.stderr : io.stdout).write(
    `\n▶ ${where}: agentest test -i ${suite.input}${agent ? ` -n ${agent}` : ''}\n`,
  );
  const flags: RawFlags = {
    ...raw,
    input: suite.input,
    ...(agent ? { name: agent } : {}),
    ...(suite.config ? { config: suite.config } : {}),
  };
  try {
    return await runTest(flags, { ...io, cwd: suite.dir });
  } catch (error) {
    if (!isAgentestError(error)) throw error;
    io.stderr.write(`${formatError(withCommandHelp(error, 'test'), io.env)}\n`);
    io.stderr.write(`  this suite's -i and -n come from ${suite.listedAt}\n`);
    return exitCodeOf(error);
  }
}

/** The suites of a config found from `cwd`, then its projects', depth first. */
async function listSuites(cwd: string, loaded: LoadedConfig, seen: Set<string>, root = cwd): Promise<ListedSuite[]> {
  const config = await normaliseConfig(loaded.config, {
    cwd,
    ...(loaded.filepath ? { file: loaded.filepath } : {}),
  });
  if (loaded.filepath) seen.add(loaded.filepath);
  const listedIn = loaded.filepath ? relative(root, loaded.filepath) || loaded.filepath : 'the config';
  const own = (config.test.suites ?? []).map((entry, i) => ({
    ...entry,
    dir: config.dir,
    listedAt: `${listedIn}: test.suites[${i}]`,
    ...(loaded.filepath ? { config: loaded.filepath } : {}),
  }));
  const nested: ListedSuite[] = [];
  for (const [i, project] of config.projects.entries()) {
    const where = `${loaded.filepath ?? 'config'}: projects[${i}]`;
    const found = await loadConfig({ cwd: project });
    if (!found.filepath || dirname(found.filepath) !== project)
      throw new AgentestError('CONFIG_INVALID', `${where}: ${project} has no agentest config of its own`, { where });
    if (seen.has(found.filepath))
      throw new AgentestError('CONFIG_INVALID', `${where}: ${found.filepath} is already part of this run`, { where });
    nested.push(...(await listSuites(project, found, seen, root)));
  }
  return [...own, ...nested];
}
