import type { Command } from 'commander';
import { AgentestError, didYouMean } from '@agentest/kernel/errors';
import type { CliIo } from './run-test.js';

/** The `history` command's flags as commander hands them over. */
export interface RawHistoryFlags {
  input?: string;
  config?: string;
  json?: boolean;
}

const EXAMPLES = `
Examples:
  $ agentest history                                            # every recorded run, newest first
  $ agentest history -i assistants/keyword/tests/inputs.jsonl   # only the runs of one suite
  $ agentest history T003                                       # one case's outcomes over time, and whether it is flaky
  $ agentest history --json                                     # the records themselves, for scripts

Runs are recorded by every agentest test in .agentest/history/ in the project root (the config file's
folder, else the nearest package.json's); the config's history section sets the folder and the limits.`;

/** `agentest history [case-id]`: declared here; the history package loads only when it runs. */
export function addHistoryCommand(program: Command, io: CliIo, onRun: (code: number) => void): void {
  program
    .command('history')
    .description("List the recorded runs, or show one case's outcomes over time and whether it is flaky.")
    .argument('[case-id]', 'a case id: show its outcome in each run that had it (e.g. T003)')
    .option(
      '-i, --input <input>',
      'only the runs of this input, as given to agentest test (default: every input; e.g. -i tests/inputs.jsonl)',
    )
    .option(
      '--config <file>',
      'config file to use instead of searching for agentest.config.* (default: the nearest one, searched from the working directory up to the package.json; e.g. --config ci.config.ts)',
    )
    .option('--json', 'print the history records as JSON (default: a table)')
    .addHelpText('after', EXAMPLES)
    .action(async (caseId: string | undefined, flags: RawHistoryFlags) => onRun(await runHistory(caseId, flags, io)));
}

/** Reads the history and prints the runs or one case; exit 2 for a case no recorded run has. */
export async function runHistory(caseId: string | undefined, flags: RawHistoryFlags, io: CliIo): Promise<number> {
  const [{ loadConfig }, { normaliseConfig }, { projectRoot, projectStore, historyInput }, history] = await Promise.all(
    [
      import('./config/load-config.js'),
      import('./config/normalise-config.js'),
      import('./project-history.js'),
      import('@agentest/history'),
    ],
  );
  const loaded = await loadConfig({ cwd: io.cwd, ...(flags.config ? { file: flags.config } : {}) });
  const config = await normaliseConfig(loaded.config, {
    cwd: io.cwd,
    ...(loaded.filepath ? { file: loaded.filepath } : {}),
  });
  const store = await projectStore(config, io.cwd);
  const { records: all, unreadable } = await store.list();
  for (const { file, reason } of unreadable) io.stderr.write(`warning: skipped ${file} in ${store.dir}: ${reason}\n`);
  const input = flags.input && historyInput(flags.input, io.cwd, projectRoot(config, io.cwd));
  const records = input ? all.filter((r) => r.input === input) : all;
  if (caseId === undefined) {
    io.stdout.write(flags.json ? `${JSON.stringify(records, null, 2)}\n` : history.renderRuns(records, store.dir));
    return 0;
  }
  const shown = history.renderCase(records, caseId);
  if (shown === undefined) {
    const known = [...new Set(records.flatMap((r) => r.cases.map((c) => c.id)))];
    throw new AgentestError(
      'FLAG_INVALID',
      `no recorded run${input ? ` of ${input}` : ''} has a case "${caseId}"${didYouMean(caseId, known)} (${records.length} run${records.length === 1 ? '' : 's'} in ${store.dir})`,
      { where: 'case-id' },
    );
  }
  const json = () =>
    records.flatMap((r) =>
      r.cases.filter((c) => c.id === caseId).map((c) => ({ run: r.id, started_at: r.started_at, ...c })),
    );
  io.stdout.write(flags.json ? `${JSON.stringify(json(), null, 2)}\n` : shown);
  return 0;
}
