import { Command, CommanderError, Option } from 'commander';
import { AgentestError } from '@agentest/kernel';
import { surviveClosedPipes } from './broken-pipe.js';
import { addCompareCommand } from './compare-command.js';
import { acceptGoFlags } from './go-flags.js';
import { exitCodeOf, formatError } from './print-error.js';
import type { CliIo } from './run-test.js';

const collect = (value: string, previous: string[] = []) => [...previous, value];

const EXAMPLES = `
Examples:
  $ agentest test -i tests/inputs.jsonl                      # auto-detect the agent, write tests/output-<timestamp>.jsonl
  $ agentest test -i "hello world" -n echo                   # one message, reply on stdout
  $ agentest test -i tests/inputs.jsonl -n mock --runs 3     # stability analysis with the offline mock agent
  $ agentest test -i tests/inputs.jsonl -o report.html -o run.jsonl  # an HTML report and the JSONL stream, nothing else
  $ agentest test -i scripts.expense.setup -v                # Yao script tests
  $ agentest test -i scripts.expense.setup -run TestSystemReady   # Go-style single-dash long flags work too
  $ agentest test -i tests/inputs.jsonl --threshold pass_rate=0.95

Exit codes: 0 all passed · 1 failures or DO NOT SHIP · 2 configuration or input error · 3 runtime error · 130 interrupted`;

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

  program
    .command('test')
    .description(
      'Run a test suite (JSONL file, message, Yao script tests, or a directory of test files) against an agent.',
    )
    .requiredOption(
      '-i, --input <input>',
      'a .jsonl file, a message, scripts.<assistant>.<module>, a directory or a glob (required; e.g. -i tests/inputs.jsonl or -i "hello")',
    )
    .option(
      '-o, --output <file>',
      'output file, format by extension: .jsonl .json .md .html .xml .txt; repeatable, and only the files asked for are written (default: {input_dir}/output-{YYYYMMDDHHMMSS}.jsonl; stdout in message mode; e.g. -o report.html -o run.jsonl)',
      collect,
    )
    .option(
      '-n, --name <agent>',
      'agent id: a config agent, echo, mock, mock:<file>, or a Yao assistant (default: auto-detect from the input path; e.g. -n keyword.agent)',
    )
    .option('-c, --connector <id>', "override the agent's connector (default: the agent's own; e.g. -c openai.gpt4o)")
    .option('-u, --user <id>', 'test user id, overrides case fields (default: "test-user"; e.g. -u admin)')
    .option('-t, --team <id>', 'test team id, overrides case fields (default: "test-team"; e.g. -t ops-team)')
    .option(
      '--ctx <file>',
      'context JSON file: authorized, metadata, client, locale, referer (default: none; e.g. --ctx tests/context.json)',
    )
    .addOption(
      new Option(
        '-r <id>',
        'reporter agent id for a custom report, or a built-in format: report.json, report.markdown, report.html, report.summary (default: none; e.g. -r report.html)',
      ),
    )
    .option(
      '--reporter <name>',
      "add a reporter by built-in name or module path; repeatable, replaces the config's reporters (e.g. --reporter junit --reporter ./my-reporter.ts)",
      collect,
    )
    .option('--runs <n>', 'runs per case for stability analysis (default: 1; e.g. --runs 5)')
    .option(
      '--run <regex>',
      'only run cases whose id or name matches this RE2 regex, as in go test -run (default: all; e.g. --run "T00[1-3]" or --run "TestSystem.*")',
    )
    .option(
      '--timeout <duration>',
      'timeout per case (default: 5m for agent cases, 30s for scripts; e.g. --timeout 2m30s)',
    )
    .option('--parallel <n>', 'cases run at once (default: 1; e.g. --parallel 4)')
    .option('-v, --verbose', "print each case's output (default: off)")
    .option('--fail-fast', 'stop starting cases after the first failure (default: off)')
    .option(
      '--threshold <name=value>',
      'minimum for a metric (maximum for *_ms); repeatable (e.g. --threshold pass_rate=0.95)',
      collect,
    )
    .option(
      '--before <ref>',
      "global BeforeAll hook of a JSONL suite: a function in the assistant's src/*_test.ts, run once before the cases (default: none; e.g. --before env_test.BeforeAll)",
    )
    .option(
      '--after <ref>',
      'global AfterAll hook of a JSONL suite, run once after the cases even when they fail (default: none; e.g. --after env_test.AfterAll)',
    )
    .option(
      '--baseline <report>',
      'compare this run with an earlier report (.jsonl or .json) when it ends; the comparison goes into every report (default: none; e.g. --baseline runs/main.jsonl)',
    )
    .option(
      '--simulator <agent>',
      'agent that plays the user in dynamic cases (checkpoints) whose case names no simulator (default: none; e.g. --simulator tests.simulator-agent)',
    )
    .option(
      '--fuzz <n>',
      "run n perturbed variants of each case's input too (typos, case, whitespace, punctuation, Unicode look-alikes) and report robustness per case (default: off; e.g. --fuzz 5)",
    )
    .option(
      '--seed <n>',
      'fixes the --fuzz perturbations; the same seed gives the same variants (default: 0; e.g. --seed 42)',
    )
    .option(
      '--dry-run',
      'load and check the cases (generated ones too: -i "agents:<id>?count=N", -i "scripts:<module>.<Function>") and write them as JSONL instead of running them: to stdout, or to -o <file>.jsonl (default: off)',
    )
    .option(
      '--allow-only',
      'allow test.only when CI is set (by default a focused test fails a CI run, so that it cannot skip the rest unnoticed)',
    )
    .option(
      '--config <file>',
      'config file to use instead of searching for agentest.config.* (e.g. --config ci.config.ts)',
    )
    .option('--no-jsonl', 'do not write the JSONL event stream by default')
    .option('--no-color', 'plain output without colours (also: NO_COLOR=1)')
    .addHelpText('after', EXAMPLES)
    .action(async (flags) => {
      const { runTest } = await import('./run-test.js');
      onRun(await runTest(flags, io));
    });
  addCompareCommand(program, io, onRun);
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
  const program = createProgram(await version(), full, (c) => (code = c));
  try {
    const command = program.commands.find((c) => c.name() === argv[0]);
    await program.parseAsync(command ? [argv[0]!, ...acceptGoFlags(argv.slice(1), command)] : [...argv], {
      from: 'user',
    });
    return code;
  } catch (error) {
    if (error instanceof CommanderError) return commanderExit(error, full);
    full.stderr.write(`${formatError(error, full.env)}\n`);
    return exitCodeOf(error);
  }
}

function commanderExit(error: CommanderError, io: CliIo): number {
  if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help')
    return 0;
  if (error.code === 'commander.executeSubCommandAsync') return error.exitCode;
  const message = error.message.replace(/^error: /, '');
  io.stderr.write(`${formatError(new AgentestError('FLAG_INVALID', message), io.env)}\n`);
  return 2;
}

async function version(): Promise<string> {
  const { createRequire } = await import('node:module');
  return (createRequire(import.meta.url)('../package.json') as { version: string }).version;
}
