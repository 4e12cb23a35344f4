import { AgentestError, type ShardLabel } from '@agentest/kernel';
import { invalid } from '../flag-error.js';

/** `--shard`, `--shard-total` and `--shard-mode` after their own checks. */
export interface ShardFlags {
  shard?: { index: number; total: number };
  shardTotal?: number;
  shardMode?: string;
}

/** A CI's parallel-job variables: which names hold the index and the total, and where the index counts from. */
interface CiShardVariables {
  ci: string;
  index: string;
  total: string;
  base: 0 | 1;
}

/** The CIs that tell each parallel job its place, in the order they are looked for. */
const CI_VARIABLES: readonly CiShardVariables[] = [
  { ci: 'GitLab', index: 'CI_NODE_INDEX', total: 'CI_NODE_TOTAL', base: 1 },
  { ci: 'Buildkite', index: 'BUILDKITE_PARALLEL_JOB', total: 'BUILDKITE_PARALLEL_JOB_COUNT', base: 0 },
  { ci: 'CircleCI', index: 'CIRCLE_NODE_INDEX', total: 'CIRCLE_NODE_TOTAL', base: 0 },
];

/** A Kubernetes Indexed Job gives the index only; the total comes from `--shard-total` or this variable. */
const KUBERNETES_INDEX = 'JOB_COMPLETION_INDEX';
const SHARD_TOTAL_VARIABLE = 'AGENTEST_SHARD_TOTAL';

/**
 * Which shard this run is, if the suite is split: `--shard i/N` first, else the CI's own variables
 * (GitLab, Buildkite, CircleCI, a Kubernetes Indexed Job). A CI that runs a single job (a total of 1)
 * splits nothing. Anything malformed is an error naming the flag or the variable, and so is
 * `--shard-mode balanced` with no shard at all.
 */
export function chooseShard(flags: ShardFlags, env: NodeJS.ProcessEnv): ShardLabel | undefined {
  if (flags.shard !== undefined) {
    const { index, total } = flags.shard;
    if (flags.shardTotal !== undefined)
      throw invalid(
        '--shard-total',
        `is for a Kubernetes Indexed Job (${KUBERNETES_INDEX}); --shard ${index}/${total} already names the total, so give one of them`,
      );
    return { index, total, source: '--shard' };
  }
  const ci = CI_VARIABLES.find((v) => present(env[v.index]));
  if (ci) {
    if (flags.shardTotal !== undefined)
      throw invalid('--shard-total', `is for a Kubernetes Indexed Job; ${ci.ci} gives the total in ${ci.total}`);
    return fromCi(ci, env);
  }
  if (present(env[KUBERNETES_INDEX])) return fromKubernetes(flags.shardTotal, env);
  if (flags.shardTotal !== undefined)
    throw invalid(
      '--shard-total',
      `needs ${KUBERNETES_INDEX} (set by a Kubernetes Indexed Job); elsewhere pass --shard <index>/<total>`,
    );
  // Without any shard to pack for, a balanced split would quietly run the whole suite on every machine.
  if (flags.shardMode === 'balanced')
    throw invalid(
      '--shard-mode',
      `balanced packs the cases of one shard, but this run names none: add --shard <index>/<total> (e.g. --shard 1/4), or run it as a parallel CI job (${CI_VARIABLES.map((v) => v.ci).join(', ')}, a Kubernetes Indexed Job) whose variables name the shard`,
    );
  return undefined;
}

function fromCi(ci: CiShardVariables, env: NodeJS.ProcessEnv): ShardLabel | undefined {
  const raw = env[ci.index]!;
  const rawTotal = env[ci.total];
  if (!present(rawTotal))
    throw envInvalid(
      ci.total,
      `${ci.index}=${raw} is set but ${ci.total} is not; ${ci.ci} sets both for a parallel job`,
    );
  const total = wholeNumber(ci.total, rawTotal, 1);
  const index = wholeNumber(ci.index, raw, ci.base);
  if (index - ci.base >= total)
    throw envInvalid(
      ci.index,
      `${ci.index}=${raw} is beyond ${ci.total}=${rawTotal} (${ci.ci} counts from ${ci.base})`,
    );
  if (total === 1) return undefined;
  return { index: index - ci.base + 1, total, source: `${ci.ci} ${ci.index}/${ci.total}` };
}

function fromKubernetes(shardTotal: number | undefined, env: NodeJS.ProcessEnv): ShardLabel | undefined {
  const raw = env[KUBERNETES_INDEX]!;
  const [totalName, rawTotal] =
    shardTotal !== undefined
      ? ['--shard-total', String(shardTotal)]
      : [SHARD_TOTAL_VARIABLE, env[SHARD_TOTAL_VARIABLE]];
  if (!present(rawTotal))
    throw envInvalid(
      KUBERNETES_INDEX,
      `${KUBERNETES_INDEX}=${raw} is set (a Kubernetes Indexed Job) but not how many shards there are: pass --shard-total <completions> or set ${SHARD_TOTAL_VARIABLE}; --shard 1/1 runs the whole suite`,
    );
  const total = shardTotal ?? wholeNumber(SHARD_TOTAL_VARIABLE, rawTotal, 1);
  const index = wholeNumber(KUBERNETES_INDEX, raw, 0);
  if (index >= total)
    throw envInvalid(
      KUBERNETES_INDEX,
      `${KUBERNETES_INDEX}=${raw} is beyond ${totalName} ${rawTotal} (the index counts from 0); make the total the Job's completions`,
    );
  if (total === 1) return undefined;
  return { index: index + 1, total, source: `Kubernetes ${KUBERNETES_INDEX}, ${totalName}` };
}

function wholeNumber(variable: string, value: string, least: number): number {
  if (!/^\s*\d+\s*$/.test(value) || Number(value) < least)
    throw envInvalid(variable, `${variable} must be a whole number of at least ${least}, got ${JSON.stringify(value)}`);
  return Number(value);
}

function present(value: string | undefined): value is string {
  return value !== undefined && value.trim() !== '';
}

function envInvalid(variable: string, problem: string): AgentestError {
  return new AgentestError(
    'SHARD_ENV_INVALID',
    `${problem} — or pass --shard <index>/<total> to choose the shard yourself`,
    {
      where: variable,
    },
  );
}
