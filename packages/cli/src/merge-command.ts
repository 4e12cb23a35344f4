import type { Command } from 'commander';
import type { CliIo } from './run-test.js';

const collect = (value: string, previous: string[] = []) => [...previous, value];

/** The `merge` command's flags as commander hands them over. */
export interface RawMergeFlags {
  output?: string[];
  runId?: string;
  config?: string;
  jsonl?: boolean;
  history?: boolean;
  verbose?: boolean;
  color?: boolean;
}

const EXAMPLES = `
Examples:
  $ agentest merge .agentest/blobs                                  # every shard of the run, the config's reports
  $ agentest merge blobs/ -o report.html -o run.jsonl               # the whole run as HTML and as its event stream
  $ agentest merge blobs/ --run-id 8123456789-1                     # one run out of a folder holding several

Exit codes: 0 all passed · 1 failures or DO NOT SHIP · 2 a shard missing, duplicated or of another run · 3 runtime error`;

/** `agentest merge <blobs…>`: declared here; reading and replaying the blobs load only when it runs. */
export function addMergeCommand(program: Command, io: CliIo, onRun: (code: number) => void): void {
  program
    .command('merge')
    .description(
      "Merge the blobs of a sharded run into one run: check they are every shard of it, recompute every statistic from the runs' results, write the reports and decide the verdict.",
    )
    .argument(
      '<blobs...>',
      'blob files, or folders holding them (*.jsonl), as the shards wrote them into --blob-dir (e.g. .agentest/blobs)',
    )
    .option(
      '-o, --output <file>',
      "output file, format by extension: .jsonl .json .md .html .xml .txt; repeatable (default: the config's reporters, and merged-{YYYYMMDDHHMMSS}.jsonl; e.g. -o report.html)",
      collect,
    )
    .option(
      '--run-id <id>',
      'merge the shards of this run only, when the folder holds blobs of several (default: the one run present; e.g. --run-id nightly-42)',
    )
    .option(
      '--config <file>',
      'config file whose reporters write the merged reports, instead of searching for agentest.config.* (default: the nearest one, searched from the working directory up to the package.json; e.g. --config ci.config.ts)',
    )
    .option('--no-jsonl', 'do not write the merged JSONL event stream by default')
    .option(
      '--no-history',
      'do not record the merged run in the run history (default: recorded as one run of the whole suite, as `agentest test` records a run)',
    )
    .option(
      '-v, --verbose',
      'print every case, each with its output (default: only the cases that did not pass, then the failed cases again and the summary; every report file has every case)',
    )
    .option('--no-color', 'plain output without colours (also: NO_COLOR=1)')
    .addHelpText('after', EXAMPLES)
    .action(async (paths: string[], flags: RawMergeFlags) => {
      const { runMerge } = await import('./blob/run-merge.js');
      onRun(await runMerge(paths, flags, io));
    });
}
