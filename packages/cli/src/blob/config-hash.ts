import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { RunPlan } from '@agentest/kernel';
import { safeStringify } from '@agentest/common';
import type { Flags } from '../flags.js';

/**
 * A hash of what decides a run's results besides its cases: the config file as written (and each base
 * config it extends), and the
 * flags that change what runs or how it is judged (agent, connector, runs, timeout, thresholds,
 * identity, `--run`, fuzzing, cassettes, budgets, how the suite is split). Where a shard runs and
 * what it writes (`--parallel`, `-o`, the shard's index, the run id) are left out: shards of one run
 * differ in those and nothing else.
 */
export async function configHash(configFiles: readonly string[], flags: Flags, plan: RunPlan): Promise<string> {
  const texts = await Promise.all(configFiles.map((file) => readFile(file, 'utf8').catch(() => '')));
  const config = texts.join('\0');
  const decisive = {
    input: flags.input,
    agent: plan.agent,
    runs: plan.runs,
    policy: plan.runPolicy !== undefined,
    timeout: plan.timeoutMs,
    thresholds: plan.thresholds,
    filter: plan.filter?.source,
    env: { user: plan.env.user, team: plan.env.team, ctx: plan.env.ctx },
    simulator: plan.simulator,
    fuzz: flags.fuzz,
    seed: flags.seed,
    cassettes: flags.cassetteMode,
    budget: [flags.maxCost, flags.maxTokens],
    split: [plan.shard?.total, flags.shardMode, flags.shardDurations],
  };
  return `sha256:${createHash('sha256')
    .update(config)
    .update('\0')
    .update(safeStringify(decisive) ?? '')
    .digest('hex')}`;
}
