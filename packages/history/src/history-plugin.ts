import type { AgentestPlugin, CaseResult, FlakyCase, RunEvent, StartEvent, SummaryEvent } from '@agentest/kernel';
import { caseHistory, FLAKY_WINDOW } from './flaky.js';
import { HISTORY_FORMAT, HISTORY_VERSION, lineage, type HistoryCase, type HistoryRecord } from './history-record.js';
import { historyCase } from './history-case.js';
import { recordId, type HistoryStore } from './history-store.js';

export interface HistoryPluginOptions {
  store: HistoryStore;
  /** The history as read before this run, oldest first (`store.list()`). */
  past: readonly HistoryRecord[];
  /** The `-i` input as it is recorded (relative to the project root). */
  input: string;
  configHash?: string;
  git?: { commit: string; branch?: string };
  /** The model, when the configuration names it; otherwise the first run's `trace.model`. */
  model?: string;
  /** False: read the history (recent outcomes, flaky flags) but leave this run out of it. */
  record?: boolean;
  /** How many latest outcomes per case flaky detection looks at (20). */
  window?: number;
  /** A history that cannot be written costs the run nothing: this hears why. */
  onWarning?: (message: string) => void;
}

/** Runs before every reporter, so that each of them hears the history on results and the summary. */
const BEFORE_REPORTERS = -100;

/**
 * Keeps the run history: each result gets the case's recent outcomes in this lineage (same input,
 * agent, connector, model and config) and, when they flip, its flakiness; the summary lists the flaky
 * cases; and when the summary comes the run is appended to the history. A write that fails is a
 * warning, never a failed run.
 */
export function historyPlugin(options: HistoryPluginOptions): AgentestPlugin {
  let start: StartEvent | undefined;
  let earlier: Map<string, HistoryCase[]> | undefined;
  let model = options.model;
  const cases: HistoryCase[] = [];
  const flaky: FlakyCase[] = [];
  return {
    name: 'agentest:history',
    apply(kernel) {
      kernel.hooks.report.tap({ name: 'agentest:history', stage: BEFORE_REPORTERS }, (event: RunEvent) => {
        if (event.type === 'start') start = event;
        else if (event.type === 'result') {
          model ??= traceModel(event);
          earlier ??= pastCases(options, start, model);
          const record = historyCase(event);
          cases.push(record);
          const statuses = [...(earlier.get(event.id) ?? []), record].flatMap((c) => c.runs.map((r) => r.status));
          event.history = caseHistory(statuses, options.window ?? FLAKY_WINDOW);
          if (event.history.flaky) flaky.push({ id: event.id, ...nameOf(event), ...event.history.flaky });
        } else if (event.type === 'summary' && start) {
          if (flaky.length) event.flaky = flaky;
          if (options.record === false) return;
          return write(options, recordOf(options, start, event, model, cases));
        }
      });
    },
  };
}

/** Each case's entries in the earlier runs of this lineage, oldest first. */
function pastCases(options: HistoryPluginOptions, start: StartEvent | undefined, model: string | undefined) {
  const byCase = new Map<string, HistoryCase[]>();
  if (!start) return byCase;
  const key = lineage({
    input: options.input,
    agent: start.agent_id,
    connector: start.connector,
    ...(model ? { model } : {}),
    ...(options.configHash ? { config_hash: options.configHash } : {}),
  });
  for (const record of options.past) {
    if (lineage(record) !== key) continue;
    for (const c of record.cases) byCase.set(c.id, [...(byCase.get(c.id) ?? []), c]);
  }
  return byCase;
}

function recordOf(
  options: HistoryPluginOptions,
  start: StartEvent,
  summary: SummaryEvent,
  model: string | undefined,
  cases: HistoryCase[],
): HistoryRecord {
  return {
    format: HISTORY_FORMAT,
    version: HISTORY_VERSION,
    id: recordId(new Date(start.timestamp)),
    input: options.input,
    suite: start.suite,
    kind: start.kind,
    agent: start.agent_id,
    connector: start.connector,
    ...(model ? { model } : {}),
    ...(options.configHash ? { config_hash: options.configHash } : {}),
    ...(options.git ? { git: options.git } : {}),
    started_at: summary.started_at,
    completed_at: summary.completed_at,
    duration_ms: summary.duration_ms,
    runs_per_case: start.runs_per_case,
    complete: summary.interrupted !== true,
    totals: {
      total: summary.total,
      passed: summary.passed,
      failed: summary.failed,
      errors: summary.errors,
      timeouts: summary.timeouts,
      skipped: summary.skipped,
    },
    cases,
  };
}

async function write(options: HistoryPluginOptions, record: HistoryRecord): Promise<void> {
  try {
    await options.store.append(record);
  } catch (error) {
    options.onWarning?.(`could not write the run history to ${options.store.dir}: ${(error as Error).message}`);
  }
}

function traceModel(result: CaseResult): string | undefined {
  const model = result.runs.find((run) => typeof run.trace?.model === 'string')?.trace?.model;
  return typeof model === 'string' && model ? model : undefined;
}

function nameOf(result: CaseResult): { name?: string } {
  return result.name && result.name !== result.id ? { name: result.name } : {};
}
