import { readFile, truncate } from 'node:fs/promises';
import { basename, dirname, isAbsolute, relative, resolve } from 'node:path';
import {
  AgentestError,
  type AgentestPlugin,
  type RunPlan,
  type ShardLabel,
  type Suite,
  type TestCase,
} from '@agentest/kernel';
import type { Flags } from '../flags.js';
import { historyInput, projectRoot } from '../project-history.js';
import type { CliIo } from '../run-test.js';
import { cliVersion } from '../version.js';
import { BLOB_FORMAT, chooseRunId, shardName, type BlobHeader } from './blob-header.js';
import { DEFAULT_BLOB_DIR, parseBlobFlags, type RawBlobFlags } from './blob-flags.js';
import { blobWriter } from './blob-writer.js';
import { CaseCensus } from './case-census.js';
import { configHash } from './config-hash.js';
import { parseRecorded, readBlob, type Blob, type RecordedLine } from './read-blob.js';

/** What a run needs for its blob: the writer plugin, if the run writes one. */
export interface BlobSetup {
  plugins: AgentestPlugin[];
}

/** Where the run came from, as `runTest` has it. */
export interface BlobRun {
  flags: Flags;
  /** The config file the run loaded and the bases it extends: their text is part of the config hash. */
  configFiles: readonly string[];
  plan: RunPlan;
}

/**
 * The blob of a sharded run (or of any run given `--blob-dir`), or the `--resume` of one. Wraps the
 * plan's selection to count the suite, so the header can name the shard's cases and hash the suite.
 */
export async function setupBlob(raw: RawBlobFlags, run: BlobRun, io: Pick<CliIo, 'cwd' | 'env'>): Promise<BlobSetup> {
  const flags = parseBlobFlags(raw);
  if (flags.resume) {
    checkResumeDir(flags, io.cwd);
    return resumeBlob(flags.resume, run, io.cwd);
  }
  const { plan } = run;
  if (!plan.shard && !flags.blobDir) return { plugins: [] };
  const census = new CaseCensus();
  plan.include = census.wrap(plan.include);
  const runId = chooseRunId(flags.runId, io.env);
  const shard: ShardLabel = plan.shard ?? { index: 1, total: 1, source: 'not split' };
  const name = blobFileName(inputLabel(run.flags.input, io.cwd), runId?.run_id, shard);
  const path = resolve(io.cwd, flags.blobDir ?? DEFAULT_BLOB_DIR, name);
  const config_hash = await configHash(run.configFiles, run.flags, plan);
  const header = (): BlobHeader => ({
    type: 'blob',
    format: BLOB_FORMAT,
    ...runId,
    shard,
    input: historyInput(run.flags.input, io.cwd, projectRoot({ file: run.configFiles[0] }, io.cwd)),
    suite_hash: census.suiteHash(),
    config_hash,
    agentest_version: cliVersion(),
    suite_cases: census.suiteCases,
    cases: census.cases,
    positions: census.positions,
    ...(plan.thresholds ? { thresholds: plan.thresholds } : {}),
  });
  return { plugins: [blobWriter({ path, header })] };
}

/**
 * The shard's own command may carry its `--blob-dir`: with `--resume` it must be the folder of the
 * blob resumed, since the resumed cases are added to that blob, not to a new one.
 */
function checkResumeDir(flags: { resume?: string; blobDir?: string }, cwd: string): void {
  if (!flags.resume || !flags.blobDir) return;
  if (resolve(cwd, flags.blobDir) === dirname(resolve(cwd, flags.resume))) return;
  throw new AgentestError(
    'FLAG_INVALID',
    `--blob-dir ${flags.blobDir} is not the folder of the blob --resume ${flags.resume} names: the resumed cases are added to that blob; leave --blob-dir out or give its folder`,
    { where: '--blob-dir' },
  );
}

/**
 * `--resume <blob>`: the same shard again, running only its cases with no result in the blob, and
 * adding them to it. The command must be the one that started the shard: a different config, flags,
 * shard, agentest version or suite is refused before any case runs.
 */
async function resumeBlob(shown: string, run: BlobRun, cwd: string): Promise<BlobSetup> {
  const path = resolve(cwd, shown);
  const blob = await readBlob(path, shown);
  const { header } = blob;
  const { plan } = run;
  if (plan.shard && (plan.shard.index !== header.shard.index || plan.shard.total !== header.shard.total))
    throw mismatch(
      shown,
      `holds ${shardName(header)}, but this run is shard ${plan.shard.index}/${plan.shard.total} (${plan.shard.source})`,
    );
  plan.shard = header.shard;
  if ((await configHash(run.configFiles, run.flags, plan)) !== header.config_hash)
    throw mismatch(
      shown,
      'was written with another config file or other flags (agent, runs, thresholds, timeout, --run, …); resume with the command that started the shard',
    );
  if (header.agentest_version !== cliVersion())
    throw mismatch(
      shown,
      `was written by agentest ${header.agentest_version}, this is ${cliVersion()}; resume with the version that started the shard`,
    );
  await dropCutLine(path);
  // A case a budget kept from starting has a result that says so, and nothing else: it is run now.
  for (const [id, recorded] of blob.results) if (neverStarted(blob, recorded)) blob.results.delete(id);
  const shardCases = new Set(header.cases);
  const census = new CaseCensus();
  plan.include = census.wrap((testCase) => shardCases.has(testCase.id));
  const resume = () => {
    if (census.suiteHash() !== header.suite_hash)
      throw mismatch(
        shown,
        'was written for another version of the suite: its cases changed since; run the shard again instead',
      );
    const cases = census.cases.filter((id) => !blob.results.has(id));
    return { type: 'resume' as const, timestamp: new Date().toISOString(), cases };
  };
  const finished = new Set(blob.results.keys());
  return {
    plugins: [blobWriter({ path, header: () => header, resume, recorded: finished }), replayFinished(blob)],
  };
}

/**
 * The finished cases of a resumed shard are replayed from its blob (their recorded runs, as `agentest merge`
 * replays a shard) instead of being left out: the resumed run's summary, verdict, reports and exit code are
 * the whole shard's, so the retry of a shard whose cases failed does not pass for having run nothing.
 * After every other suite tap, so the `--fuzz` variants a shard keeps with their case are replayed too.
 */
function replayFinished(blob: Blob): AgentestPlugin {
  const name = 'agentest:resume';
  return {
    name,
    apply({ hooks }) {
      hooks.suite.tap({ name, stage: AFTER_EVERY_SUITE_TAP }, (suite: Suite) => ({
        ...suite,
        cases: () => withRecordedRuns(suite.cases(), blob),
      }));
    },
  };
}

const AFTER_EVERY_SUITE_TAP = 1000;

/** The kernel's skip reason for a case a halted run (a budget) never started. */
const NOT_RUN = '"skip_reason":"not run: ';

function neverStarted(blob: Blob, recorded: RecordedLine): boolean {
  if (!recorded.text.includes(NOT_RUN)) return false;
  const result = parseRecorded(blob.file, recorded);
  return result.status === 'skipped' && result.runs.length === 0 && !!result.skip_reason?.startsWith('not run: ');
}

async function* withRecordedRuns(cases: AsyncIterable<TestCase> | Iterable<TestCase>, blob: Blob) {
  for await (const testCase of cases) {
    const recorded = blob.results.get(testCase.id);
    yield recorded ? { ...testCase, recordedRuns: parseRecorded(blob.file, recorded).runs } : testCase;
  }
}

/** `cases-jsonl.nightly-42.shard-2-of-4.jsonl`: input, run and shard, so blobs in one folder never collide. */
export function blobFileName(
  input: string,
  runId: string | undefined,
  shard: Pick<ShardLabel, 'index' | 'total'>,
): string {
  const parts = [slug(input), ...(runId ? [slug(runId)] : []), `shard-${shard.index}-of-${shard.total}`];
  return `${parts.join('.')}.jsonl`;
}

/** The input as a path under the working directory when it is one, else its last part (or the text given). */
function inputLabel(input: string, cwd: string): string {
  const path = relative(cwd, resolve(cwd, input));
  return path.startsWith('..') || isAbsolute(path) ? basename(input) : path;
}

function slug(text: string): string {
  return (
    text
      .replace(/[^A-Za-z0-9_-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 80) || 'suite'
  );
}

/** A shard killed mid-write leaves its last line cut short: cut it off, so the lines added next stay whole. */
async function dropCutLine(path: string): Promise<void> {
  const text = await readFile(path);
  const end = text.lastIndexOf(0x0a) + 1;
  if (end < text.length) await truncate(path, end);
}

function mismatch(file: string, problem: string): AgentestError {
  return new AgentestError('BLOB_MISMATCH', `--resume ${file} ${problem}`, { where: '--resume' });
}
