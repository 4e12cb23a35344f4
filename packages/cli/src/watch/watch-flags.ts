import { parseTagFilter } from '../tag-filter.js';
import { invalid } from '../flag-error.js';

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
