import { relative } from 'node:path';
import type { AgentestPlugin, RunPlan, ShardLabel, TestCase, EnvironmentVariables } from '@agentest/kernel';
import type { NormalisedConfig } from '../config/normalise-config.js';
import type { Flags } from '../flags.js';
import { historyInput, projectRoot, projectStore } from '../project-history.js';
import { inShard } from './assign-shard.js';
import type { DurationSource } from './balanced-plugin.js';
import { chooseShard } from './choose-shard.js';

export type ShardMode = 'hash' | 'balanced';

/** This shard's part: the plan's `include`, and for a balanced split the plugin that packs the suite first. */
export interface ShardSplit {
  include: (testCase: TestCase) => boolean;
  plugin?: AgentestPlugin;
}

/** What a balanced split reads its durations from: the config (for the history folder), `-i` and the cwd. */
export interface SplitContext {
  config: Pick<NormalisedConfig, 'file' | 'history'>;
  input: string;
  cwd: string;
}

/**
 * Splits the run when it is one shard of a suite (`--shard`, or the CI's variables): labels the plan and
 * gives it this shard's `include`; a balanced split also returns the plugin that packs the suite once loaded.
 */
export async function setupShard(
  flags: Pick<Flags, 'shard' | 'shardTotal' | 'shardMode' | 'shardDurations'>,
  env: EnvironmentVariables,
  plan: RunPlan,
  context: SplitContext,
): Promise<AgentestPlugin[]> {
  const shard = chooseShard(flags, env);
  if (!shard) return [];
  const durations = flags.shardDurations;
  const split = await shardSplit(shard, { mode: flags.shardMode, ...(durations ? { durations } : {}) }, context);
  Object.assign(plan, { shard, include: split.include });
  return split.plugin ? [split.plugin] : [];
}

/**
 * How this shard takes its part: by the hash of each case id (the default), or, with `--shard-mode
 * balanced`, packed by the durations of a previous report (`--shard-durations`) or else of the run history.
 */
export async function shardSplit(
  shard: ShardLabel,
  split: { mode: ShardMode; durations?: string },
  context: SplitContext,
): Promise<ShardSplit> {
  if (split.mode === 'hash') return { include: inShard(shard) };
  const source =
    split.durations === undefined
      ? await historyDurations(context)
      : { durations: await reportDurations(split.durations, context.cwd), from: `the durations in ${split.durations}` };
  const { balancedShard } = await import('./balanced-plugin.js');
  return balancedShard(shard, source);
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

/**
 * Each case's time from the run history of this input: the latest run that ran it (a sharded suite's
 * parts are recorded as separate runs). A history that cannot be read is as good as an empty one: the
 * cases are then spread by count, and the header says so.
 */
async function historyDurations({ config, input, cwd }: SplitContext): Promise<DurationSource> {
  const { latestDurations } = await import('@agentest/history');
  const store = await projectStore(config, cwd);
  const recorded = historyInput(input, cwd, projectRoot(config, cwd));
  const records = await store.list().then(
    (listing) => listing.records,
    () => [],
  );
  const found = latestDurations(records, recorded);
  const folder = relative(cwd, store.dir) || '.';
  const runs = found.runs === 1 ? '1 run' : `${found.runs} runs`;
  return {
    durations: found.durations,
    from: found.latest
      ? `the durations in the run history (${folder}: ${runs} of ${recorded}, the latest at ${found.latest})`
      : `the run history (${folder}), which has no earlier run of ${recorded}`,
  };
}
