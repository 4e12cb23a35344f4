import { readdir, stat } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { createKernel, type AgentestPlugin, type RunPlan } from '@agentest/kernel';
import { loadConfig } from '../config/load-config.js';
import { normaliseConfig, type NormalisedConfig } from '../config/normalise-config.js';
import { shipVerdict } from '../default-kernel.js';
import { claimDefaultOutputs } from '../default-outputs.js';
import { setupHistory } from '../history-setup.js';
import { outcomeExitCode } from '../exit-code.js';
import type { RawMergeFlags } from '../merge-command.js';
import { timestamp } from '../output-path.js';
import { formatError } from '../print-error.js';
import { projectRoot } from '../project-history.js';
import { setupReporters } from '../reporter-setup.js';
import type { CliIo } from '../run-test.js';
import { blobInvalid, shardName } from './blob-header.js';
import { checkShardSet, type ShardSet } from './check-blobs.js';
import { readBlob, type Blob } from './read-blob.js';
import { replayShards } from './replay-shards.js';

/**
 * The reporters that read nothing of a passed case but its status and figures: the JSONL report (which
 * writes a recorded line as it is) and the console printing only the cases that did not pass. With only
 * these (and no config plugin or reporter of its own) a passed case is replayed from its line's index.
 */
const LEAN_REPORTERS: ReadonlySet<string> = new Set(['agentest:jsonl', 'agentest:console']);

/**
 * `agentest merge`: reads the blobs, checks they are every shard of one run, and runs the merged run
 * through the kernel with the recorded results standing in for the agent, so every statistic, the
 * thresholds and the verdict come out as one unsharded run's would. Returns the exit code; only this
 * decides the run's verdict.
 */
export async function runMerge(paths: readonly string[], flags: RawMergeFlags, io: CliIo): Promise<number> {
  const blobs = await readBlobs(paths, io.cwd);
  const set = checkShardSet(blobs, flags.runId?.trim() || undefined);
  io.stdout.write(mergingLine(set));
  const loaded = await loadConfig({ cwd: io.cwd, ...(flags.config ? { file: flags.config } : {}) });
  const config = await normaliseConfig(loaded.config, {
    cwd: io.cwd,
    ...(loaded.filepath ? { file: loaded.filepath } : {}),
  });
  // A kept history (as a run keeps it) decides each case's recent outcomes and the flaky ones.
  let reporters: readonly AgentestPlugin[] = [];
  const { plan, plugin } = replayShards(set, io.cwd, {
    flakyFromShards: config.history.enabled === false,
    passThrough: config.plugins.length === 0,
    lean: () => !flags.verbose && !config.reporters?.length && reporters.every((r) => LEAN_REPORTERS.has(r.name)),
  });
  const history = await mergedHistory(set, config, plan, flags, io);
  // The replay comes first, so its agent and executors stand in for any the config's plugins give; those
  // plugins then hear and shape the merged run's events and summary as they would a run's.
  const kernel = createKernel({ plugins: [plugin, ...config.plugins, ...shipVerdict(config)] });
  const claimed = await claimDefaultOutputs(join(io.cwd, `merged-${timestamp()}`), (stem) =>
    setupReporters({
      outputs: (flags.output ?? []).map((path) => resolve(io.cwd, path)),
      specs: config.reporters ?? [],
      stem,
      defaultJsonl: flags.jsonl !== false,
      defaultFiles: true,
      printReply: false,
      verbose: flags.verbose === true,
      // A merge job is read for its verdict: the cases that did not pass and the summary, every case with -v.
      consoleCases: flags.verbose === true ? 'all' : 'failed',
      color: flags.color !== false,
      cwd: io.cwd,
      resolveAgent: (id) => kernel.resolveAgent({ id }, plan),
      stdout: io.stdout,
      stderr: io.stderr,
      env: io.env,
      replyPrinter: () => plugin,
    }),
  );
  try {
    plan.options = { mode: 'file', outputs: claimed.planned.outputs };
    reporters = claimed.planned.plugins;
    kernel.use(...history, ...claimed.planned.plugins);
    const outcome = await kernel.run(plan);
    for (const error of outcome.errors) io.stderr.write(`${formatError(error, io.env)}\n`);
    return outcomeExitCode(outcome);
  } finally {
    await claimed.release();
  }
}

/**
 * Every blob named, a folder standing for the `.jsonl` files in it, read in name order. A file named
 * twice (`blobs blobs/a.jsonl`) is read once: it is one blob, not two copies of a shard.
 */
async function readBlobs(paths: readonly string[], cwd: string): Promise<Blob[]> {
  const files: { path: string; shown: string }[] = [];
  for (const given of paths) {
    const path = resolve(cwd, given);
    const found = await stat(path).catch(() => undefined);
    if (!found?.isDirectory()) {
      files.push({ path, shown: given });
      continue;
    }
    const names = (await readdir(path)).filter((name) => name.endsWith('.jsonl')).sort();
    if (!names.length)
      throw blobInvalid(
        given,
        'holds no blob (no .jsonl file): is it the folder the shards wrote into with --blob-dir?',
      );
    files.push(...names.map((name) => ({ path: join(path, name), shown: relative(cwd, join(path, name)) || name })));
  }
  const once = files.filter(({ path }, i) => files.findIndex((f) => f.path === path) === i);
  return Promise.all(once.map(({ path, shown }) => readBlob(path, shown)));
}

/**
 * The history plugin a run of the shards' input would have, recording the merged run as one run of
 * the whole suite (`--no-history`: read, not recorded), as `agentest test` sets it up.
 */
async function mergedHistory(
  set: ShardSet,
  config: NormalisedConfig,
  plan: RunPlan,
  flags: RawMergeFlags,
  io: CliIo,
): Promise<AgentestPlugin[]> {
  const root = projectRoot(config, io.cwd);
  const input = set.blobs[0]!.header.input ?? plan.input.input;
  const asRun = { input, lastFailed: false, history: flags.history !== false };
  // From the project root, the input as the shards recorded it (relative to it) is found as it was.
  return (await setupHistory(asRun, config, plan, { ...io, cwd: root }, true)).plugins;
}

/** What is being merged, before the run's own header. */
function mergingLine(set: ShardSet): string {
  const header = set.blobs[0]!.header;
  const run =
    header.run_id !== undefined
      ? `run ${header.run_id} (${header.run_id_source})`
      : 'a run with no run id, its shards grouped by suite and config hash';
  const shards = set.blobs.map((blob) => `${shardName(blob.header)} ${blob.file}`).join(', ');
  return `Merging ${set.blobs.length} shard${set.blobs.length === 1 ? '' : 's'} of ${run}: ${shards}\n`;
}
