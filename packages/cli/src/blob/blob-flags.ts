import type { Command } from 'commander';
import { AgentestError } from '@agentest/kernel/errors';

/** Where blobs go when no `--blob-dir` is given, under the working directory. */
export const DEFAULT_BLOB_DIR = '.agentest/blobs';

/** The blob flags of `agentest test` as commander hands them over. */
export interface RawBlobFlags {
  blobDir?: string;
  runId?: string;
  resume?: string;
}

/** The blob flags after their checks. */
export interface BlobFlags {
  blobDir?: string;
  runId?: string;
  resume?: string;
}

/** `--blob-dir`, `--run-id` and `--resume` on `agentest test`. */
export function addBlobOptions(command: Command): void {
  command
    .option(
      '--blob-dir <dir>',
      `where a sharded run writes its blob (the event stream with every run's result and a header naming the run, shard, suite and config) for agentest merge; a run given this flag writes one even when not sharded (default: ${DEFAULT_BLOB_DIR} when sharded; e.g. --blob-dir blobs)`,
    )
    .option(
      '--run-id <id>',
      "the run the shards belong to, written in each blob so that merge takes the shards of one run (default: the CI's run id: GITHUB_RUN_ID and GITHUB_RUN_ATTEMPT, CI_PIPELINE_ID, BUILDKITE_BUILD_ID or CIRCLE_WORKFLOW_ID; e.g. --run-id nightly-42)",
    )
    .option(
      '--resume <blob>',
      "run again only the cases of a shard's blob that have no result (the shard was killed or preempted) and add them to that blob; give the command that started the shard (default: off; e.g. --resume .agentest/blobs/cases.shard-2-of-4.jsonl)",
    );
}

export function parseBlobFlags(raw: RawBlobFlags): BlobFlags {
  const flags: BlobFlags = {};
  for (const [key, flag, example] of [
    ['blobDir', '--blob-dir', '--blob-dir blobs'],
    ['runId', '--run-id', '--run-id nightly-42'],
    ['resume', '--resume', '--resume .agentest/blobs/cases.shard-2-of-4.jsonl'],
  ] as const) {
    const value = raw[key];
    if (value === undefined) continue;
    if (!value.trim()) throw new AgentestError('FLAG_INVALID', `${flag} is empty (e.g. ${example})`, { where: flag });
    flags[key] = value.trim();
  }
  return flags;
}
