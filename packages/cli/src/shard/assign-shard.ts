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

/**
 * The id a case is placed by: its own, or for a `--fuzz` variant the case it varies, so that a case and
 * its variants run on one shard and each shard's robustness figures cover whole cases.
 */
export function shardUnit(testCase: TestCase): string {
  const of = (testCase.metadata as { fuzz?: { of?: unknown } } | undefined)?.fuzz?.of;
  return typeof of === 'string' ? of : testCase.id;
}

/** The plan's `include` for one shard: the cases whose unit hashes to it. */
export function inShard(shard: Pick<ShardLabel, 'index' | 'total'>): (testCase: TestCase) => boolean {
  return (testCase) => shardOfCase(shardUnit(testCase), shard.total) === shard.index;
}
