import { AgentestError } from '@agentest/kernel';

/**
 * A flag given a value it cannot take: `FLAG_INVALID`, naming the flag. In a module of its own so that
 * the files `flags.ts` reads flags through (watch, shard) can say so without importing it back.
 */
export function invalid(flag: string, problem: string): AgentestError {
  return new AgentestError('FLAG_INVALID', `${flag} ${problem}`, { where: flag });
}
