import { AgentestError, type ShardLabel } from '@agentest/kernel';

/** The blob format this agentest writes; a reader refuses one it does not know. */
export const BLOB_FORMAT = 3;
/**
 * The formats this agentest reads: 3 adds a passed case's index to its line (see lean-result.ts);
 * a format-2 blob is merged the same, each line parsed whole.
 */
const READABLE_FORMATS: readonly number[] = [2, BLOB_FORMAT];

/**
 * The first line of a blob: what makes it self-describing, so `agentest merge` can tell whether a set
 * of blobs are the shards of one run without any other file. The lines after it are the run's events.
 */
export interface BlobHeader {
  type: 'blob';
  format: 2 | typeof BLOB_FORMAT;
  /** The run the shards belong to (from the CI or `--run-id`); absent when neither gave one. */
  run_id?: string;
  /** What gave the run id: `--run-id`, `GITHUB_RUN_ID+GITHUB_RUN_ATTEMPT`, … */
  run_id_source?: string;
  /** Which shard this is; a run without sharding is shard 1 of 1. */
  shard: ShardLabel;
  /** The `-i` as the run history records it (relative to the project root), so the merge records the same input. */
  input?: string;
  /** A hash of every case of the suite as the shard saw it, before the split: shards of one run agree on it. */
  suite_hash: string;
  /** A hash of the config file and of the flags that decide results (runs, thresholds, agent, …). */
  config_hash: string;
  agentest_version: string;
  /** How many cases the whole suite holds (every shard's together). */
  suite_cases: number;
  /** This shard's case ids, in suite order. */
  cases: string[];
  /** Each case's place in the whole suite, so a merge lists cases in the order one run would. */
  positions: number[];
  /** The thresholds the shard judged by, so the merge judges the whole run by the same ones. */
  thresholds?: Record<string, number>;
}

/** A `--resume` appends this line before the events of the cases it runs again. */
export interface ResumeMark {
  type: 'resume';
  timestamp: string;
  cases: string[];
}

/** The CI variables that name one run of a pipeline, shared by all its parallel jobs, in the order looked for. */
const CI_RUN_IDS: readonly { names: readonly string[]; source: string }[] = [
  { names: ['GITHUB_RUN_ID', 'GITHUB_RUN_ATTEMPT'], source: 'GITHUB_RUN_ID+GITHUB_RUN_ATTEMPT' },
  { names: ['CI_PIPELINE_ID'], source: 'CI_PIPELINE_ID' },
  { names: ['BUILDKITE_BUILD_ID'], source: 'BUILDKITE_BUILD_ID' },
  { names: ['CIRCLE_WORKFLOW_ID'], source: 'CIRCLE_WORKFLOW_ID' },
];

/**
 * The run id the shards agree on: `--run-id`, else the CI's own pipeline or workflow id (GitHub's
 * run id with its attempt, so a re-run does not mix with the first), else none.
 */
export function chooseRunId(
  flag: string | undefined,
  env: NodeJS.ProcessEnv,
): { run_id: string; run_id_source: string } | undefined {
  if (flag !== undefined) return { run_id: flag, run_id_source: '--run-id' };
  for (const { names, source } of CI_RUN_IDS) {
    const values = names.map((name) => env[name]?.trim());
    if (values[0]) return { run_id: values.filter(Boolean).join('-'), run_id_source: source };
  }
  return undefined;
}

/** `shard 2/4`, as messages name a blob's shard. */
export function shardName(header: Pick<BlobHeader, 'shard'>): string {
  return `shard ${header.shard.index}/${header.shard.total}`;
}

/** Checks a parsed first line is a blob header this agentest can read; `file` names it in the error. */
export function checkHeader(value: unknown, file: string): BlobHeader {
  const header = value as Partial<BlobHeader> | null;
  if (!header || typeof header !== 'object' || header.type !== 'blob')
    throw blobInvalid(
      file,
      'line 1 is not a blob header: this is not a shard blob (a sharded run writes them into --blob-dir)',
    );
  if (!READABLE_FORMATS.includes(header.format as number))
    throw blobInvalid(
      file,
      `blob format ${String(header.format)} is not one this agentest reads (${READABLE_FORMATS.join(', ')}); merge with the agentest version that wrote it (${String(header.agentest_version)})`,
    );
  const shard = header.shard;
  const wellFormed =
    shard &&
    Number.isInteger(shard.index) &&
    Number.isInteger(shard.total) &&
    typeof header.suite_hash === 'string' &&
    typeof header.config_hash === 'string' &&
    typeof header.agentest_version === 'string' &&
    Array.isArray(header.cases) &&
    Array.isArray(header.positions) &&
    header.cases.length === header.positions.length &&
    typeof header.suite_cases === 'number';
  if (!wellFormed) throw blobInvalid(file, 'line 1, the blob header, is missing fields (was it edited by hand?)');
  return header as BlobHeader;
}

export function blobInvalid(file: string, problem: string, line?: number): AgentestError {
  const where = line === undefined ? file : `${file}:${line}`;
  return new AgentestError('BLOB_INVALID', `${where}: ${problem}`, { where });
}
