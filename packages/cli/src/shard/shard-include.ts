import type { ShardLabel, TestCase } from '@agentest/kernel';
import { inShard } from './assign-shard.js';
import { inBalancedShard } from './balanced-shards.js';

export type ShardMode = 'hash' | 'balanced';

/**
 * The plan's `include` for this shard: by the hash of each case id (the default), or, with
 * `--shard-mode balanced`, packed by the durations of a previous report (`--shard-durations`).
 */
export async function shardInclude(
  shard: ShardLabel,
  split: { mode: ShardMode; durations?: string },
  cwd: string,
): Promise<(testCase: TestCase) => boolean> {
  if (split.mode === 'hash' || split.durations === undefined) return inShard(shard);
  return inBalancedShard(shard, await reportDurations(split.durations, cwd));
}

/** Each case's time in a report: the sum of its runs, since a case goes to one shard with all its runs. */
async function reportDurations(path: string, cwd: string): Promise<Map<string, number>> {
  const { readReport } = await import('@agentest/compare');
  const report = await readReport(path, cwd);
  const durations = new Map<string, number>();
  for (const [id, record] of report.cases)
    durations.set(
      id,
      record.runs.reduce((sum, run) => sum + (run.durationMs ?? 0), 0),
    );
  return durations;
}
