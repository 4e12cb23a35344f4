import type { ShardLabel, TestCase } from '@agentest/kernel';
import { shardOfCase } from './assign-shard.js';

/**
 * `--shard-mode balanced`: the cases of a previous report packed into `total` shards by their duration,
 * longest first, each into the shard with the least work so far (greedy longest-processing-time), so the
 * shards finish together; between shards with as much work, the one with fewer cases (cases of no recorded
 * time still spread). Ties go by id and then to the lowest shard, so every machine reading the same report
 * computes the same packing. Returns each case id's shard (1-based).
 */
export function packByDuration(durations: ReadonlyMap<string, number>, total: number): Map<string, number> {
  const shards = Array.from({ length: total }, () => ({ load: 0, cases: 0 }));
  const packed = new Map<string, number>();
  const longestFirst = [...durations].sort(([a, da], [b, db]) => db - da || (a < b ? -1 : a > b ? 1 : 0));
  for (const [id, duration] of longestFirst) {
    let lightest = 0;
    shards.forEach((shard, i) => {
      const best = shards[lightest]!;
      if (shard.load < best.load || (shard.load === best.load && shard.cases < best.cases)) lightest = i;
    });
    shards[lightest]!.load += duration;
    shards[lightest]!.cases++;
    packed.set(id, lightest + 1);
  }
  return packed;
}

/**
 * The plan's `include` for one shard of a balanced split: the cases the report knows are packed by their
 * durations; a case it does not know (added since) goes by the hash of its id, as with the default split.
 */
export function inBalancedShard(
  shard: Pick<ShardLabel, 'index' | 'total'>,
  durations: ReadonlyMap<string, number>,
): (testCase: TestCase) => boolean {
  const packed = packByDuration(durations, shard.total);
  return (testCase) => (packed.get(testCase.id) ?? shardOfCase(testCase.id, shard.total)) === shard.index;
}
