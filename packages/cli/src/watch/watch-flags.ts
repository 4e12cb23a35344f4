import type { Command } from 'commander';
import { parseTagFilter } from '@agentest/kernel';
import { invalid } from '../flags.js';

const collect = (value: string, previous: string[] = []) => [...previous, value];

/** `--tag`, `--list`, `--json` and `--watch` as commander hands them over. */
export interface WatchRawFlags {
  tag?: string[];
  list?: boolean;
  json?: boolean;
  watch?: boolean;
}

/** The same flags after validation. */
export interface WatchFlags {
  /** `--tag` as given (`smoke`, `!slow`): the run plan turns them into its tag filter. */
  tags?: string[];
  /** `--list`: print the selected cases instead of running them. */
  list: boolean;
  /** `--list --json`: one JSON object per case and line. */
  listJson: boolean;
  /** `--watch`: run, then run the affected cases again whenever a file the suite uses changes. */
  watch: boolean;
}

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
    .option('--json', 'with --list: one JSON object per case and line ({"id", "name", "kind", "source", "tags"})')
    .option(
      '--watch',
      'run, then watch the suite, its scripts, prompts and hooks and the config, and run the affected cases again on every change; keys: a all, f failed, Enter again, q quit (default: off)',
    );
}

/** Checks the combinations that cannot work and the tag names. */
export function parseWatchFlags(raw: WatchRawFlags & { dryRun?: boolean }): WatchFlags {
  if (raw.json && !raw.list) throw invalid('--json', 'goes with --list (e.g. --list --json)');
  if (raw.list && raw.dryRun)
    throw invalid('--list', 'and --dry-run both print the cases instead of running them: choose one');
  if (raw.watch && (raw.list || raw.dryRun))
    throw invalid(
      '--watch',
      `runs the cases again and again; ${raw.list ? '--list' : '--dry-run'} runs none: choose one`,
    );
  if (raw.tag?.length) parseTagFilter(raw.tag);
  return {
    ...(raw.tag?.length ? { tags: raw.tag } : {}),
    list: raw.list === true,
    listJson: raw.json === true,
    watch: raw.watch === true,
  };
}
