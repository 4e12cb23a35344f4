import { resolve } from 'node:path';
import { AgentestError, type CaseFilter, type ContextFile, type RunPlan } from '@agentest/kernel';
import { goDuration, parseDuration } from '@agentest/common';
import { yaoPlanContext } from '@agentest/plugin-agent';
import { memorySuite, MEMORY_SUITE_NAME } from '@agentest/plugin-jsonl';
import { goRegex } from './flags.js';
import { parseTagFilter } from './tag-filter.js';

/** What a run is asked to do, in plain values; `createRunPlan` fills the defaults. */
export interface RunPlanOptions {
  /** `-i`: a JSONL file, a message, `scripts.<assistant>.<module>`, a directory or a glob. */
  input?: string;
  /**
   * Instead of `input`: cases held in memory, each written as a JSONL line would be
   * (`{ id, input, expected?, assert?, … }`). They run with no loader plugin.
   */
  cases?: readonly unknown[];
  cwd?: string;
  /** `-n`: the agent id; absent means auto-detect from the input's path. */
  agent?: string;
  /** `-c`: the connector override. */
  connector?: string;
  runs?: number;
  parallel?: number;
  /** `--timeout`: a duration (`"2m"`) or milliseconds. */
  timeout?: string | number;
  failFast?: boolean;
  /** `--run`: a regex (or its source, RE2 style) matched against case ids and names. */
  filter?: CaseFilter | string;
  /** `--tag`: run only cases with one of these tags; `!slow` leaves out the cases tagged slow. */
  tags?: readonly string[];
  user?: string;
  team?: string;
  ctx?: ContextFile;
  ctxFile?: string;
  verbose?: boolean;
  thresholds?: Record<string, number>;
  /** The threshold names that came from `--threshold` (a wrong one is then a flag error). */
  thresholdFlags?: readonly string[];
  /** A `test.only` is an error (the CLI: `CI` set, no `--allow-only`). */
  forbidOnly?: boolean;
  /** `--simulator`: the default simulator of dynamic cases. */
  simulator?: string;
  options?: Record<string, unknown>;
}

/** Builds a kernel `RunPlan`: one run per case, one case at a time, the suite's timeout, unless told otherwise. */
export function createRunPlan(o: RunPlanOptions): RunPlan {
  const cwd = resolve(o.cwd ?? process.cwd());
  if ((o.input === undefined) === (o.cases === undefined))
    throw new AgentestError(
      'INPUT_INVALID',
      'createRunPlan: give `input` (what -i takes) or `cases`, exactly one of them',
      {
        where: 'createRunPlan',
      },
    );
  const agent = { ...(o.agent ? { id: o.agent } : {}), ...(o.connector ? { connector: o.connector } : {}) };
  const env = {
    ...(o.user ? { user: o.user } : {}),
    ...(o.team ? { team: o.team } : {}),
    ...(o.ctx ? { ctx: o.ctx } : {}),
    ...(o.ctxFile ? { ctxFile: o.ctxFile } : {}),
  };
  return {
    input: { input: o.input ?? MEMORY_SUITE_NAME, cwd },
    ...(o.cases ? { suite: memorySuite(o.cases, cwd, o.simulator ? { simulator: o.simulator } : {}) } : {}),
    ...(Object.keys(agent).length ? { agent } : {}),
    runs: o.runs ?? 1,
    parallel: o.parallel ?? 1,
    ...(o.timeout !== undefined ? { timeoutMs: parseDuration(o.timeout, 'timeout') } : {}),
    // Yao writes durations as Go does: `timeout after 5m0s`.
    durationText: goDuration,
    failFast: o.failFast ?? false,
    ...(o.filter !== undefined ? { filter: typeof o.filter === 'string' ? goRegex('--run', o.filter) : o.filter } : {}),
    ...(o.tags?.length ? { tags: parseTagFilter(o.tags) } : {}),
    env,
    // The identity defaults and the `-u`/`-t`/`--ctx` priority are Yao's, owned by the agent plugin.
    context: yaoPlanContext(env, { script: o.input?.startsWith('scripts.') }),
    verbose: o.verbose ?? false,
    ...(o.thresholds && Object.keys(o.thresholds).length ? { thresholds: o.thresholds } : {}),
    ...(o.thresholdFlags?.length ? { thresholdFlags: o.thresholdFlags } : {}),
    ...(o.forbidOnly ? { forbidOnly: true } : {}),
    ...(o.simulator ? { simulator: o.simulator } : {}),
    ...(o.options ? { options: o.options } : {}),
  };
}
