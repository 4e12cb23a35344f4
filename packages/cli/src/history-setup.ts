import { AgentestError, type AgentestPlugin, type CaseFilter, type RunPlan } from '@agentest/kernel';
import type { ComparisonInput } from '@agentest/compare';
import type { HistoryRecord, HistoryStore } from '@agentest/history';
import { configFiles, type NormalisedConfig } from './config/normalise-config.js';
import type { Flags } from './flags.js';
import { historyInput, projectRoot, projectStore } from './project-history.js';
import type { CliIo } from './run-test.js';

export interface HistorySetup {
  /** The plugin that records this run (none when history is off). */
  plugins: AgentestPlugin[];
  /** `--baseline last`: the latest run of this input, as a comparison side. */
  baseline?: ComparisonInput;
  /** `--last-failed` when nothing failed last time: why there is nothing to run. */
  nothingToRun?: string;
}

/**
 * The run history around one `agentest test`: reads the earlier runs (for `--baseline last`,
 * `--last-failed` and `--order failed-first`, and for flaky detection), sets the plan's filter and
 * order from them, and gives the plugin that records this run. A history that cannot be read or
 * written is a warning; asking for what it cannot give (`--last-failed` on a suite that never ran) is an error.
 */
export async function setupHistory(
  flags: Pick<Flags, 'input' | 'baseline' | 'lastFailed' | 'order' | 'history'>,
  config: NormalisedConfig,
  plan: RunPlan,
  io: CliIo,
  recordable: boolean,
): Promise<HistorySetup> {
  // `--no-history` still reads the history (flaky flags, --baseline last); it only leaves this run out.
  const enabled = config.history.enabled !== false && recordable;
  const needed = flags.baseline === 'last' || flags.lastFailed || flags.order === 'failed-first';
  if (!enabled && !needed) return { plugins: [] };
  const history = await import('@agentest/history');
  const store = await projectStore(config, io.cwd);
  const input = historyInput(flags.input, io.cwd, projectRoot(config, io.cwd));
  const past = await readPast(store, io);
  const latest = history.latestRun(past, input);
  const never = (flag: string) =>
    new AgentestError(
      'FLAG_INVALID',
      `${flag}: no earlier run of ${input} in the history (${store.dir}); run the suite once without it first`,
      { where: flag },
    );
  const setup: HistorySetup = { plugins: [] };
  if (flags.baseline === 'last') {
    if (!latest) throw never('--baseline last');
    setup.baseline = history.comparisonInput(latest);
  }
  if (flags.lastFailed) {
    if (!latest) throw never('--last-failed');
    const failed = history.failedIds(latest);
    if (!failed.size)
      return {
        plugins: [],
        nothingToRun: `--last-failed: every case passed in the latest run of ${input} (${latest.started_at}); nothing to run again\n`,
      };
    plan.filter = onlyFailed(failed, plan.filter);
  }
  if (flags.order === 'failed-first') plan.order = history.failedFirst(past, input);
  if (enabled) {
    const [git, configHash] = await Promise.all([
      history.gitState(projectRoot(config, io.cwd)),
      history.configHash(configFiles(config)),
    ]);
    const model = modelOf(config, plan);
    setup.plugins.push(
      history.historyPlugin({
        store,
        past,
        input,
        ...(git ? { git } : {}),
        ...(configHash ? { configHash } : {}),
        ...(model ? { model } : {}),
        record: flags.history,
        onWarning: (message) => io.stderr.write(`warning: ${message}\n`),
      }),
    );
  }
  return setup;
}

async function readPast(store: HistoryStore, io: CliIo): Promise<HistoryRecord[]> {
  try {
    const { records, unreadable } = await store.list();
    for (const { file, reason } of unreadable)
      io.stderr.write(`warning: skipped ${file} in the run history (${store.dir}): ${reason}\n`);
    return records;
  } catch (error) {
    io.stderr.write(`warning: could not read the run history in ${store.dir}: ${(error as Error).message}\n`);
    return [];
  }
}

/** `--last-failed`: the cases that did not pass last time, within what `--run` selects. */
function onlyFailed(failed: Set<string>, filter: CaseFilter | undefined): CaseFilter {
  const ids = [...failed];
  return {
    source: `${filter ? `${filter.source} and ` : ''}the ${ids.length} case${ids.length === 1 ? '' : 's'} that failed last time`,
    test: (text) => failed.has(text) && (!filter || filter.test(text)),
  };
}

/** The model the config gives the run's connector (`model`, or `options.model`), when it names one. */
function modelOf(config: NormalisedConfig, plan: RunPlan): string | undefined {
  const agent = plan.agent?.id ? config.agents[plan.agent.id] : undefined;
  const connectorId = plan.agent?.connector ?? (agent as { connector?: unknown } | undefined)?.connector;
  const connector = typeof connectorId === 'string' ? config.connectors[connectorId] : undefined;
  const model = connector?.model ?? (connector?.options as { model?: unknown } | undefined)?.model;
  return typeof model === 'string' && model ? model : undefined;
}
