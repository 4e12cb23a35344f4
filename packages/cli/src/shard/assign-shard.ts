import { createHash } from 'node:crypto';
import type { ShardLabel, TestCase } from '@agentest/kernel';

/**
 * The shard (1-based, of `total`) a case belongs to: a hash of its id, so that adding or removing
 * cases never moves the others, and every machine computes the same split without talking to the rest.
 * The whole case goes to one shard with all its runs, so its stability figures never span machines.
 */
export function shardOfCase(id: string, total: number): number {
  return (createHash('sha256').update(id).digest().readUInt32BE(0) % total) + 1;
}

/** The plan's `include` for one shard: the cases whose id hashes to it. */
export function inShard(shard: Pick<ShardLabel, 'index' | 'total'>): (testCase: TestCase) => boolean {
  return (testCase) => shardOfCase(testCase.id, shard.total) === shard.index;
}
