import { AgentestError } from '@agentest/kernel';
import { shardName, type BlobHeader } from './blob-header.js';
import type { Blob } from './read-blob.js';

/** The blobs of one run, in shard order, and how they were told apart from others. */
export interface ShardSet {
  blobs: Blob[];
  /** Set when the blobs carry no run id and were grouped by their suite and config hash instead. */
  groupedByHash?: true;
}

/**
 * Picks the blobs of one run and checks they make the whole of it: `total` distinct shards, of the
 * same suite, config and agentest version, with disjoint case sets that together are the suite, and
 * every case of every shard finished. Anything else fails loudly, naming the shard and the file.
 */
export function checkShardSet(blobs: readonly Blob[], runId: string | undefined): ShardSet {
  const set = oneRun(blobs, runId);
  const [first, ...others] = set.blobs;
  for (const blob of others) sameRun(first!, blob);
  const byIndex = distinctShards(set.blobs);
  const total = first!.header.shard.total;
  const missing = Array.from({ length: total }, (_, i) => i + 1).filter((index) => !byIndex.has(index));
  if (missing.length)
    throw incomplete(
      `missing ${missing.map((index) => `shard ${index}/${total}`).join(', ')} of ${runLabel(first!.header)}: got ${[...byIndex.keys()].map((index) => `${index}/${total}`).join(', ')}; pass every shard's blob (wait for the shards still running)`,
    );
  const ordered = [...byIndex.entries()].sort(([a], [b]) => a - b).map(([, blob]) => blob);
  disjointAndWhole(ordered);
  for (const blob of ordered) finished(blob);
  return { blobs: ordered, ...(set.groupedByHash ? { groupedByHash: true as const } : {}) };
}

/** The blobs of one run: those of `--run-id`, else the only run present (by run id, or by hashes when none). */
function oneRun(blobs: readonly Blob[], runId: string | undefined): ShardSet {
  const chosen = runId === undefined ? blobs : blobs.filter((blob) => blob.header.run_id === runId);
  if (!chosen.length)
    throw mismatch(
      `no blob belongs to run ${JSON.stringify(runId)}; the blobs are of ${[...new Set(blobs.map((b) => runLabel(b.header)))].join(', ')}`,
    );
  const groups = new Map<string, Blob[]>();
  for (const blob of chosen) {
    const key = groupKey(blob.header);
    groups.set(key, [...(groups.get(key) ?? []), blob]);
  }
  const groupedByHash = chosen.every((blob) => blob.header.run_id === undefined);
  if (groups.size > 1) {
    const list = [...groups.values()].map(
      (group) => `${runLabel(group[0]!.header)}: ${group.map(describe).join(', ')}`,
    );
    throw mismatch(
      `the blobs are of ${groups.size} runs, ${list.join('; ')}${groupedByHash ? ' (they carry no run id, so they were grouped by suite and config hash)' : ''}; merge one run's blobs${groupedByHash ? '' : ', or pick one with --run-id'}`,
    );
  }
  return { blobs: [...groups.values()][0]!, ...(groupedByHash ? { groupedByHash: true as const } : {}) };
}

function groupKey(header: BlobHeader): string {
  return header.run_id !== undefined ? `run:${header.run_id}` : `hash:${header.suite_hash}:${header.config_hash}`;
}

/** Shards of one run agree on their total, the agentest that wrote them, the suite and the config. */
function sameRun(first: Blob, blob: Blob): void {
  const [a, b] = [first.header, blob.header];
  if (a.shard.total !== b.shard.total)
    throw mismatch(
      `different shard totals: ${describe(first)} but ${describe(blob)}; every shard of a run splits the suite the same way`,
    );
  if (a.agentest_version !== b.agentest_version)
    throw mismatch(
      `different agentest version: ${describe(first)} was written by agentest ${a.agentest_version}, ${describe(blob)} by ${b.agentest_version}; run every shard with the same version`,
    );
  if (a.config_hash !== b.config_hash)
    throw mismatch(
      `different config hash: ${describe(first)} has ${short(a.config_hash)}, ${describe(blob)} ${short(b.config_hash)}; the shards ran with different config files or flags (agent, runs, thresholds, timeout, --run, …)`,
    );
  if (a.suite_hash !== b.suite_hash)
    throw mismatch(
      `different suite hash: ${describe(first)} has ${short(a.suite_hash)}, ${describe(blob)} ${short(b.suite_hash)}; the shards ran different versions of the suite (check out the same commit on every machine)`,
    );
}

function distinctShards(blobs: readonly Blob[]): Map<number, Blob> {
  const byIndex = new Map<number, Blob>();
  for (const blob of blobs) {
    const earlier = byIndex.get(blob.header.shard.index);
    if (earlier)
      throw mismatch(
        `duplicated ${shardName(blob.header)}: ${earlier.file} and ${blob.file} are the same shard; pass each shard's blob once`,
      );
    byIndex.set(blob.header.shard.index, blob);
  }
  return byIndex;
}

/** No case is in two shards, and the shards' cases add up to the suite. */
function disjointAndWhole(blobs: readonly Blob[]): void {
  const owner = new Map<string, Blob>();
  for (const blob of blobs) {
    for (const id of blob.header.cases) {
      const earlier = owner.get(id);
      if (earlier) throw mismatch(`case ${JSON.stringify(id)} is in ${describe(earlier)} and in ${describe(blob)}`);
      owner.set(id, blob);
    }
  }
  const suiteCases = blobs[0]!.header.suite_cases;
  if (owner.size !== suiteCases)
    throw incomplete(`the shards hold ${owner.size} cases but the suite has ${suiteCases}`);
}

/** Every case of the shard has its result: a shard killed or still running has not. */
function finished(blob: Blob): void {
  const unfinished = blob.header.cases.filter((id) => !blob.results.has(id));
  if (!unfinished.length) return;
  const shown = unfinished.slice(0, 5).map((id) => JSON.stringify(id));
  throw incomplete(
    `${describe(blob)} has no result for ${unfinished.length} of its ${blob.header.cases.length} cases (${shown.join(', ')}${unfinished.length > shown.length ? ', …' : ''}): the shard stopped before the end; run those cases with the shard's command and --resume ${blob.file}`,
  );
}

function describe(blob: Blob): string {
  return `${shardName(blob.header)} (${blob.file})`;
}

function runLabel(header: BlobHeader): string {
  return header.run_id !== undefined ? `run ${header.run_id}` : `the run of config ${short(header.config_hash)}`;
}

/** The first 12 hex digits of a hash, enough to tell two apart in a message. */
function short(hash: string): string {
  return hash.replace(/^sha256:/, '').slice(0, 12);
}

function mismatch(problem: string): AgentestError {
  return new AgentestError('BLOB_MISMATCH', `agentest merge: ${problem}`, { where: 'agentest merge' });
}

function incomplete(problem: string): AgentestError {
  return new AgentestError('MERGE_INCOMPLETE', `agentest merge: ${problem}`, { where: 'agentest merge' });
}
