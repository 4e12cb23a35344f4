import type { Command } from 'commander';

const collect = (value: string, previous: string[] = []) => [...previous, value];

// Only the definitions: `agentest test --help` loads this file, and nothing of the run-time with it.
/** The options of the test command that choose cases by tag, list them, or keep running them as files change. */
export function addWatchOptions(command: Command): void {
  command
    .option(
      '--tag <tag>',
      "only cases with this tag; repeatable: a case with any of the tags runs, and '!tag' leaves out the cases that have it (default: all; e.g. --tag smoke --tag '!slow')",
      collect,
    )
    .option(
      '--list',
      'print the selected cases (after --run, --tag and --shard), one line each with id, file:line and tags, and exit without running them (default: off)',
    )
    .option(
      '--json',
      'with --list: one JSON object per case and line ({"id", "name", "kind", "source", "tags"}) (default: off: one text line per case)',
    )
    .option(
      '--watch',
      'run, then watch the suite, its scripts, prompts and hooks and the config, and run the affected cases again on every change; keys: a all, f failed, Enter again, q quit (default: off)',
    );
}
