import { statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { AgentestPlugin, EnvironmentVariables, Kernel, RunOutcome, RunPlan } from '@agentest/kernel';
import type { TextStream } from '@agentest/report';
import { isCi, loadRe2 } from '@agentest/common';
import { setupApp, withAppRoot } from './app/app-setup.js';
import { loadConfig } from './config/load-config.js';
import { configFiles, normaliseConfig, type NormalisedConfig } from './config/normalise-config.js';
import { readReporterFlags, reporterAgentFailure, type ReporterFlagChoice } from './reporter-flag.js';
import { setupBaseline, type BaselineSetup } from './baseline.js';
import { setupBlob } from './blob/setup-blob.js';
import type { CallOptions } from './call-plugins.js';
import { setupHistory } from './history-setup.js';
import { setupCoverage, type CoverageSetup } from './coverage/coverage-setup.js';
import { readContextFile } from './context-file.js';
import { outcomeExitCode } from './exit-code.js';
import { kernelFromConfig } from './default-kernel.js';
import { parseFlags, type Flags, type RawFlags } from './flags.js';
import { claimDefaultOutputs } from './default-outputs.js';
import { detectInputMode, type InputMode } from './input-mode.js';
import { dryRun } from './dry-run.js';
import { messageOutput } from './message-output.js';
import { outputStem, writesDefaultFile } from './output-path.js';
import { formatError } from './print-error.js';
import { checkReporterAgents } from './reporter-agents.js';
import { setupReporters } from './reporter-setup.js';
import { createRunPlan } from './run-plan.js';
import { runsSetting } from './sequential-runs.js';
import { setupShard } from './shard/shard-include.js';
import { watchSignals } from './signals.js';
import type { WatchServer } from './watch/watch-session.js';

export interface CliIo {
  cwd: string;
  env: EnvironmentVariables;
  stdout: TextStream;
  stderr: TextStream;
}

/** How long an aborted run may take to flush its files before the process exits anyway. */
const ABORT_GRACE_MS = 5_000;

/**
 * `agentest test`: flags over config, config validated and every reference loaded, then one kernel
 * run with SIGINT/SIGTERM/SIGHUP wired to it. Returns the exit code; throws only AgentestErrors
 * raised before the run (exit 2) for the caller to print.
 */
export async function runTest(raw: RawFlags, io: CliIo, watcher?: WatchServer): Promise<number> {
  if (raw.run !== undefined) await loadRe2(); // `--run` is an RE2 pattern, compiled as the flags are read
  const flags = parseFlags(raw);
  if (flags.watch && !watcher) return (await import('./watch/watch-test.js')).watchTest(raw, io);
  const cwd = io.cwd;
  const app = await setupApp(raw, flags.input, cwd, io.env);
  const prepared = await prepareRun(flags, io);
  const { plan, mode } = prepared;
  const config = withAppRoot(prepared.config, app.root);
  const shard = await setupShard(flags, io.env, plan, { config, input: flags.input, cwd });
  const outputs = flags.outputs.map((path) => resolve(cwd, path));
  const fuzz = flags.fuzz ? [await fuzzPlugin(flags.fuzz, flags.seed ?? 0)] : [];

  const history = await setupHistory(flags, config, plan, io, mode !== 'message');
  if (history.nothingToRun) {
    io.stdout.write(history.nothingToRun);
    return 0;
  }
  // The kernel exists before its reporters, so a reporter agent (`-r <id>`) resolves through it after the run.
  const kernel = await kernelFromConfig(config, {
    cwd,
    reporters: [...fuzz, ...shard],
    calls: callOptions(flags, io.env),
    stderr: io.stderr,
  });
  if (flags.dryRun) return dryRun(kernel, plan, outputs, io);
  if (flags.list) return (await import('./list-cases.js')).listCases(kernel, plan, flags.listJson, io);
  const baseline = await setupBaseline(history.baseline ?? flags.baseline, io, {
    color: flags.color,
    quiet: mode === 'message' && !outputs.length,
  });
  const reporterFlags = await readReporterFlags(flags.reporters, flags.reporterAgent, io.cwd);
  const claimed = await claimReporters(flags, reporterFlags, { mode, outputs, config, kernel, plan }, io);
  try {
    const reporters = claimed.planned;
    plan.options = { ...plan.options, outputs: reporters.outputs };
    const { plugins: blob } = await setupBlob(raw, { flags, configFiles: configFiles(config), plan }, io);
    const coverage = await setupCoverage(raw.coverage, config, plan, io);
    kernel.use(
      ...history.plugins,
      ...baseline.plugins,
      ...coverage.plugins,
      ...reporters.plugins,
      ...blob,
      ...(watcher?.plugins ?? []),
    );
    await checkReporterAgents(kernel, reporters.agents, plan).catch((e) => reporterAgentFailure(reporterFlags, e));
    const report = (outcome: RunOutcome) => reportOutcome(outcome, io, baseline, coverage);
    if (watcher) return await watcher.serve({ kernel, plan, config, outputs: reporters.outputs, report });
    return await runWithSignals(kernel, plan, io, report);
  } finally {
    await claimed.release();
  }
}

/**
 * The run's reporters, from the flags or the config, with their default output files claimed (a run
 * started in the same second gets names of its own).
 */
async function claimReporters(
  flags: Flags,
  chosen: ReporterFlagChoice,
  run: { mode: InputMode; outputs: string[]; config: NormalisedConfig; kernel: Kernel; plan: RunPlan },
  io: CliIo,
) {
  const { mode, outputs, config, kernel, plan } = run;
  const cwd = io.cwd;
  const specs = chosen.specs ?? config.reporters ?? [];
  const reporterAgent = chosen.reporterAgent;
  return claimDefaultOutputs(outputStem(mode, flags.input, cwd), (stem) =>
    setupReporters({
      outputs,
      ...(reporterAgent ? { reporterAgent } : {}),
      specs,
      stem,
      defaultJsonl: flags.jsonl && writesDefaultFile(mode),
      defaultFiles: writesDefaultFile(mode),
      printReply: mode === 'message' && !outputs.length && !reporterAgent,
      verbose: flags.verbose,
      color: flags.color,
      cwd,
      resolveAgent: (id) => kernel.resolveAgent({ id }, plan),
      stdout: io.stdout,
      stderr: io.stderr,
      env: io.env,
      replyPrinter: () => messageOutput(io),
    }),
  );
}

/** Cassette mode, replay timing and the budget from the command line, over the config's. */
function callOptions(flags: Flags, env: EnvironmentVariables): CallOptions {
  return {
    ...(flags.cassetteMode ? { cassetteMode: flags.cassetteMode } : {}),
    replayTiming: flags.replayTiming,
    ...(flags.maxCost !== undefined ? { maxCost: flags.maxCost } : {}),
    ...(flags.maxTokens !== undefined ? { maxTokens: flags.maxTokens } : {}),
    env,
  };
}

/** `--fuzz`: the plugin that adds the variants and the robustness summary, loaded only when asked for. */
async function fuzzPlugin(variants: number, seed: number): Promise<AgentestPlugin> {
  const { default: fuzz } = await import('@agentest/plugin-fuzz');
  return fuzz({ variants, seed });
}

/** The config (searched from the input), the `--ctx` file, and the plan they make with the flags. */
async function prepareRun(
  flags: Flags,
  { cwd, env }: Pick<CliIo, 'cwd' | 'env'>,
): Promise<{ config: NormalisedConfig; plan: RunPlan; mode: InputMode }> {
  // A suite that lives in its own folder brings its config: search from the input's location (up to
  // the nearest package.json), so `-i examples/support` finds examples/support/agentest.config.ts.
  const loaded = await loadConfig({
    cwd,
    searchFrom: configSearchStart(flags.input, cwd),
    ...(flags.config ? { file: flags.config } : {}),
  });
  const config = withHookFlags(
    await normaliseConfig(loaded.config, {
      cwd,
      bases: loaded.bases,
      ...(loaded.filepath ? { file: loaded.filepath } : {}),
    }),
    flags,
  );
  const ctxPath = flags.ctx ? resolve(cwd, flags.ctx) : config.test.ctx;
  const ctx = ctxPath ? await readContextFile(ctxPath, cwd) : undefined;
  const mode = detectInputMode(flags.input, cwd);
  const output = flags.outputs[0];
  const { runs, runPolicy } = await runsSetting(flags, config);
  const plan = createRunPlan({
    input: flags.input,
    cwd,
    agent: flags.name,
    connector: flags.connector,
    runs,
    parallel: flags.parallel ?? config.test.parallel,
    timeout: flags.timeoutMs ?? config.test.timeoutMs,
    failFast: flags.failFast ?? config.test.failFast,
    filter: flags.filter,
    tags: flags.tags,
    user: flags.user ?? config.test.user,
    team: flags.team ?? config.test.team,
    ctx: ctx?.ctx,
    ctxFile: ctx?.file,
    verbose: flags.verbose,
    thresholds: { ...config.thresholds, ...flags.thresholds },
    thresholdFlags: Object.keys(flags.thresholds),
    forbidOnly: isCi(env) && !flags.allowOnly,
    simulator: flags.simulator,
    options: {
      mode,
      ...(output ? { output: resolve(cwd, output) } : {}),
      snapshots: { update: flags.updateSnapshots, ci: isCi(env) },
    },
  });
  if (runPolicy) plan.runPolicy = runPolicy;
  return { config, plan, mode };
}

/** One kernel run with the process signals wired to it; its errors printed, its exit code returned. */
async function runWithSignals(
  kernel: Kernel,
  plan: RunPlan,
  io: CliIo,
  report: (outcome: RunOutcome) => number,
): Promise<number> {
  const signals = watchSignals({
    onInterrupt: () =>
      io.stderr.write('\nInterrupted: finishing the running cases (press Ctrl-C again to abort them)\n'),
    onAbort: () => setTimeout(() => process.exit(130), ABORT_GRACE_MS).unref(),
  });
  let outcome: RunOutcome;
  try {
    outcome = await kernel.run(plan, { interrupt: signals.interrupt, abort: signals.abort });
  } finally {
    signals.dispose();
  }
  return report(outcome);
}

/** What a run's outcome adds to its reports (baseline comparison, coverage, an early stop, errors); its exit code. */
function reportOutcome(outcome: RunOutcome, io: CliIo, baseline: BaselineSetup, coverage: CoverageSetup): number {
  baseline.print(outcome.summary);
  coverage.finish(outcome.summary);
  const { halted, not_run: notRun = 0 } = outcome.summary;
  if (halted) io.stderr.write(`Stopped early: ${halted}; ${notRun} case${notRun === 1 ? '' : 's'} not run.\n`);
  for (const error of outcome.errors) io.stderr.write(`${formatError(error, io.env)}\n`);
  return outcomeExitCode(outcome);
}

/** The input's directory when `-i` names an existing file or directory, else the working directory. */
function configSearchStart(input: string, cwd: string): string {
  const path = resolve(cwd, input);
  try {
    return statSync(path).isDirectory() ? path : dirname(path);
  } catch {
    return cwd;
  }
}

/** `--before` / `--after` set the script plugin's `hooks.beforeAll` / `hooks.afterAll`, over the config's. */
function withHookFlags(config: NormalisedConfig, flags: Flags): NormalisedConfig {
  if (!flags.beforeAll && !flags.afterAll) return config;
  const script = config.pluginOptions.script ?? {};
  const hooks = {
    ...(script.hooks as Record<string, unknown> | undefined),
    ...(flags.beforeAll ? { beforeAll: flags.beforeAll } : {}),
    ...(flags.afterAll ? { afterAll: flags.afterAll } : {}),
  };
  return { ...config, pluginOptions: { ...config.pluginOptions, script: { ...script, hooks } } };
}
