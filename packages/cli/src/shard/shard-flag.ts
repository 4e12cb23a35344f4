import { AgentestError } from '@agentest/kernel';

/** `--shard 2/4`: the second of four shards, counted from 1 as Playwright and Vitest do. */
export function parseShardFlag(value: string): { index: number; total: number } {
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(value);
  if (!match)
    throw invalid(`must be <index>/<total>, got ${JSON.stringify(value)} (e.g. --shard 2/4 for the second of four)`);
  const index = Number(match[1]);
  const total = Number(match[2]);
  if (total < 1) throw invalid(`${value}: the total must be at least 1 (e.g. --shard 1/4)`);
  if (index < 1)
    throw invalid(
      `${value}: shards count from 1, as in Playwright and Vitest; the first of ${total} is --shard 1/${total}`,
    );
  if (index > total)
    throw invalid(`${value}: the index is above the total; the shards of ${total} are 1/${total} to ${total}/${total}`);
  return { index, total };
}

// flags.ts imports this file, so the flag error is built here rather than with its `invalid`.
function invalid(problem: string): AgentestError {
  return new AgentestError('FLAG_INVALID', `--shard ${problem}`, { where: '--shard' });
}
