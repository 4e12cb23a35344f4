import { Option, type Command } from 'commander';
import { addAppOptions } from './app/app-flags.js';
import { addBlobOptions } from './blob/blob-flags.js';
import type { RawFlags } from './flags.js';
import { addCoverageOptions } from './coverage/coverage-flags.js';
import type { CliIo } from './run-test.js';
import { addWatchOptions } from './watch/watch-options.js';

const collect = (value: string, previous: string[] = []) => [...previous, value];

const EXAMPLES = `
Examples, as they run in a Yao app such as the repository's examples/app:
  # the agent found from the suite's package.yao; writes output-<timestamp>.jsonl beside the suite
  $ agentest test -i assistants/keyword/tests/inputs.jsonl
  # one message, the reply on stdout
  $ agentest test -i "hello world" -n echo
  # stability analysis with the offline mock agent (its replies in mock.yaml, beside the suite or above it)
  $ agentest test -i assistants/keyword/tests/inputs.jsonl -n mock --runs 3
  # an HTML report and the JSONL stream, nothing else
  $ agentest test -i assistants/keyword/tests/inputs.jsonl -o report.html -o run.jsonl
  # Yao script tests; Go-style single-dash long flags work too
  $ agentest test -i scripts.expense.setup -v
  $ agentest test -i scripts.expense.setup -run TestSystemReady
  # a minimum the run must reach, else exit 1
  $ agentest test -i assistants/orders/tests/inputs.jsonl --threshold pass_rate=0.95
  # the cases without the slow tag, listed with file:line and tags, not run
  $ agentest test -i assistants/keyword/tests/inputs.jsonl --list --tag '!slow'
  # run, then rerun the affected cases on every change (q quits)
  $ agentest test -i assistants/keyword/tests/inputs.jsonl --watch
  # the suites the config lists (test.suites, projects)
  $ agentest test

Exit codes: 0 all passed · 1 failures or DO NOT SHIP · 2 configuration or input error · 3 runtime error · 130 interrupted`;

/** `agentest test …`: its flags and help; the run itself loads only once the command runs. */
export function addTestCommand(program: Command, io: CliIo, onRun: (code: number) => void): void {
  const command = program
    .command('test')
    .description(
      'Run a test suite (JSONL file, message, Yao script tests, or a directory of test files) against an agent.',
    );
  addSuiteOptions(command);
  addRunOptions(command);
  addRunnerOptions(command);
  addReplayOptions(command);
  addHistoryOptions(command);
  addAppOptions(command);
  addBlobOptions(command);
  addCoverageOptions(command);
  addWatchOptions(command);
  command.addHelpText('after', EXAMPLES).action(async (flags: RawFlags) => {
    if (flags.input === undefined) {
      const { runListedSuites } = await import('./run-suites.js');
      onRun(await runListedSuites(flags, io));
    } else {
      const { runTest } = await import('./run-test.js');
      onRun(await runTest(flags, io));
    }
  });
}

/** What to run and against which agent, and where the results go. */
function addSuiteOptions(command: Command): void {
  command
    .option(
      '-i, --input <input>',
      'a .jsonl file, a message, scripts.<assistant>.<module>, a directory or a glob (default: the suites the config lists in test.suites and projects; e.g. -i tests/inputs.jsonl or -i "hello")',
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
      'context JSON file: chat_id, authorized, metadata, client, locale, referer (default: none; e.g. --ctx tests/context.json)',
    )
    .addOption(
      new Option(
        '-r <id>',
        'reporter agent id for a custom report, or a built-in format: report.json, report.markdown, report.html, report.summary (default: none; e.g. -r report.html)',
      ),
    )
    .option(
      '--reporter <name>',
      "add a reporter by built-in name, module path or package name (an agent id: the reporter agent, as -r); repeatable, replaces the config's reporters (default: the config's reporters; e.g. --reporter junit --reporter ./my-reporter.ts)",
      collect,
    );
}

/** How the cases run: repetitions, selection, limits, verbosity, thresholds and Yao's global hooks. */
function addRunOptions(command: Command): void {
  command
    .option(
      '--runs <n>',
      'runs per case for stability analysis, or auto[:max] for a sequential test (SPRT) per case that stops when the answer is clear (default: 1; e.g. --runs 5 or --runs auto:20)',
    )
    .option(
      '--run <regex>',
      'only run cases whose id or name matches this RE2 regex, as in go test -run (default: all; e.g. --run "T00[1-3]" or --run "TestSystem.*")',
    )
    .option(
      '--timeout <duration>',
      'timeout per case, a duration with a unit as in Go (default: 5m for agent cases, 30s for scripts; e.g. --timeout 2m30s or --timeout 500ms)',
    )
    .option('--parallel <n>', 'cases run at once (default: 1; e.g. --parallel 4)')
    .option(
      '--shard <index/total>',
      "run one part of the suite split across machines, counted from 1; a case goes to one shard with all its runs, by a hash of its id (default: the CI's parallel-job variables when set, else the whole suite; e.g. --shard 2/4)",
    )
    .option(
      '--shard-total <n>',
      'how many shards a Kubernetes Indexed Job splits the suite into, with JOB_COMPLETION_INDEX as the index (default: AGENTEST_SHARD_TOTAL; e.g. --shard-total 4)',
    )
    .option(
      '--shard-mode <mode>',
      'how cases are split: hash (by case id; adding cases moves no other) or balanced (packed by their durations in --shard-durations or else the run history, longest first, so shards finish together) (default: hash; e.g. --shard-mode balanced)',
    )
    .option(
      '--shard-durations <report>',
      'a report of an earlier run (.jsonl or .json) whose case durations --shard-mode balanced packs by; every shard must read the same one (default: the run history; e.g. --shard-durations last-run.jsonl)',
    )
    .option('-v, --verbose', "print each case's output (default: off)")
    .option('--fail-fast', 'stop starting cases after the first failure (default: off)')
    .option(
      '--threshold <name=value>',
      "minimum for a metric (maximum for *_ms); a rate is a share from 0 to 1 or a percentage, 70% meaning 0.7; repeatable (default: the config's thresholds; e.g. --threshold pass_rate=0.95 or --threshold keyword_hit_rate=70%)",
      collect,
    )
    .option(
      '--before <ref>',
      "global BeforeAll hook of a JSONL suite: a function in the assistant's src/*_test.ts, run once before the cases (default: the config's script.hooks.beforeAll, else none; e.g. --before env_test.BeforeAll)",
    )
    .option(
      '--after <ref>',
      "global AfterAll hook of a JSONL suite, run once after the cases even when they fail (default: the config's script.hooks.afterAll, else none; e.g. --after env_test.AfterAll)",
    );
}

/** The comparison baseline, CI behaviour, the config file and the default outputs. */
function addRunnerOptions(command: Command): void {
  command
    .option(
      '--baseline <report>',
      'compare this run with an earlier report (.jsonl or .json), or with the latest run of this input in the history (last), when it ends; the comparison goes into every report (default: none; e.g. --baseline runs/main.jsonl or --baseline last)',
    )
    .option(
      '--simulator <agent>',
      'agent that plays the user in dynamic cases (checkpoints) whose case names no simulator, and in ctx.simulate (default: none; e.g. --simulator tests.simulator-agent)',
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
      'allow test.only when CI is set (default: off: a focused test fails a CI run, so that it cannot skip the rest unnoticed)',
    )
    .option(
      '--update',
      'write snapshots that differ from the output and remove obsolete ones (docs/snapshots.md) (default: off: a missing snapshot is written, or fails its case when CI is set)',
    )
    .option(
      '--config <file>',
      'config file to use instead of searching for agentest.config.* (default: the nearest one, searched from the input up to the package.json; e.g. --config ci.config.ts)',
    )
    .option('--no-jsonl', 'do not write the JSONL event stream by default')
    .option('--no-color', 'plain output without colours (also: NO_COLOR=1)');
}

/** Cassettes (recording and replaying model and tool calls) and the budget of live calls. */
function addReplayOptions(command: Command): void {
  command
    .option(
      '--record',
      'call the models and tools for real and record every call into cassettes (docs/replay.md) (default: off)',
    )
    .option(
      '--replay',
      'answer every model and tool call from the cassettes; a call with no recording fails its case (default: off)',
    )
    .option(
      '--cassettes <mode>',
      "cassette mode: off, record, replay, or auto (replay what is recorded, record the rest). With CI set and cassettes present, no flag and auto mean replay (lockdown) (default: the config's cassettes.mode, else off)",
    )
    .option(
      '--replay-timing',
      'replayed calls take as long as they took when recorded, streamed chunks included (default: off: replays answer at once)',
    )
    .option(
      '--max-cost <usd>',
      "stop starting cases once live model calls have cost this much in USD; the rest are reported as not run and the run exits 1 (default: the config's budget.maxCost, else none; e.g. --max-cost 2.50)",
    )
    .option(
      '--max-tokens <n>',
      "the same budget in tokens (default: the config's budget.maxTokens, else none; e.g. --max-tokens 200000)",
    );
}

/** What the run history offers a run: the likely failures first, only the last failures, or leaving a run out. */
function addHistoryOptions(command: Command): void {
  command
    .option(
      '--order <order>',
      'run order: failed-first runs the cases that failed last time first, then flaky ones, then the longest first (default: file order; e.g. --order failed-first)',
    )
    .option(
      '--last-failed',
      'run only the cases that failed (or errored, or timed out) in the latest run of this input, from the history (default: off)',
    )
    .option(
      '--no-history',
      'leave this run out of the history (.agentest/history/ in the project root); flaky flags still come from the earlier runs',
    );
}
