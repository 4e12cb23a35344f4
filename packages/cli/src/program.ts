import { Command, CommanderError } from 'commander';
import { AgentestError } from '@agentest/kernel/errors';
import { surviveClosedPipes } from './broken-pipe.js';
import { addCompareCommand } from './compare-command.js';
import { addHistoryCommand } from './history-command.js';
import { addMergeCommand } from './merge-command.js';
import { addInitCommand } from './init/init-command.js';
import { addShowReportCommand } from './show-report/show-report-command.js';
import { acceptGoFlags } from './go-flags.js';
import { cliVersion } from './version.js';
import { addTestCommand } from './test-command.js';
import type { CliIo } from './run-test.js';

/** The command line: `agentest test …`. Heavy modules load only once a command runs. */
export function createProgram(version: string, io: CliIo, onRun: (code: number) => void): Command {
  const program = new Command('agentest')
    .description('Test AI agents: structured cases in, verdicts, statistics and reports out.')
    .version(version, '--version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
      outputError: () => {},
    });

  addTestCommand(program, io, onRun);
  addCompareCommand(program, io, onRun);
  addHistoryCommand(program, io, onRun);
  addMergeCommand(program, io, onRun);
  addInitCommand(program, io, onRun);
  addShowReportCommand(program, io, onRun);
  return program;
}

/**
 * Runs the CLI with the given arguments (without `node` and the script) and returns the exit code.
 * Errors are printed as `error[CODE]: message` and a hint; never as a stack trace.
 */
export async function runCli(argv: readonly string[], io: Partial<CliIo> = {}): Promise<number> {
  const full: CliIo = {
    cwd: io.cwd ?? process.cwd(),
    env: io.env ?? process.env,
    stdout: io.stdout ?? process.stdout,
    stderr: io.stderr ?? process.stderr,
  };
  surviveClosedPipes(full.stdout, full.stderr);
  let code = 0;
  const program = createProgram(cliVersion(), full, (c) => (code = c));
  const command = program.commands.find((c) => c.name() === argv[0]);
  try {
    await program.parseAsync(command ? [argv[0]!, ...acceptGoFlags(argv.slice(1), command)] : [...argv], {
      from: 'user',
    });
    return code;
  } catch (error) {
    if (error instanceof CommanderError) return commanderExit(error, full, command?.name());
    const { exitCodeOf, formatError, withCommandHelp } = await import('./print-error.js');
    full.stderr.write(`${formatError(withCommandHelp(error, command?.name()), full.env)}\n`);
    return exitCodeOf(error);
  }
}

async function commanderExit(error: CommanderError, io: CliIo, command: string | undefined): Promise<number> {
  if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help')
    return 0;
  if (error.code === 'commander.executeSubCommandAsync') return error.exitCode;
  const message = error.message.replace(/^error: /, '');
  // The error printer loads the kernel and the report package: only a run or a refusal needs them.
  const { formatError, withCommandHelp } = await import('./print-error.js');
  const refusal = withCommandHelp(new AgentestError('FLAG_INVALID', message), command);
  io.stderr.write(`${formatError(refusal, io.env)}\n`);
  return 2;
}
