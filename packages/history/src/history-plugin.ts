import type {
  AgentestPlugin,
  CaseResult,
  FlakyCase,
  RunEvent,
  StartEvent,
  Status,
  SummaryEvent,
} from '@agentest/kernel';
import { caseHistory, FLAKY_WINDOW } from './flaky.js';
import { lineage, type HistoryCase, type HistoryRecord } from './history-record.js';
import { historyCase } from './history-case.js';
import { recordId, type HistoryStore } from './history-store.js';
import type { RecordFields, RecordWriter } from './record-writer.js';

const PLUGIN_NAME = 'agentest:history';

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
 * cases; and the run's record is written as the run goes, one case at a time (nothing per case stays
 * in memory but the flaky ones the summary lists), and put in place when the summary comes. A write
 * that fails is a warning, never a failed run.
 */
export function historyPlugin(options: HistoryPluginOptions): AgentestPlugin {
  let start: StartEvent | undefined;
  let earlier: Map<string, HistoryCase[]> | undefined;
  let model = options.model;
  let writer: RecordWriter | undefined;
  let failure: Error | undefined;
  let flaky: FlakyCase[] = [];
  return {
    name: PLUGIN_NAME,
    apply(kernel) {
      kernel.hooks.report.tap({ name: PLUGIN_NAME, stage: BEFORE_REPORTERS }, (event: RunEvent) => {
        if (event.type === 'start') {
          start = event;
          flaky = [];
          failure = undefined;
          if (options.record === false) return;
          // The kernel waits for this before the first case, so results find the writer ready.
          return begin(options, event).then(
            (opened) => void (writer = opened),
            (error: Error) => void (failure = error),
          );
        } else if (event.type === 'result') {
          model ??= traceModel(event);
          earlier ??= pastCases(options, start, model);
          const entry = historyCase(event);
          event.history = caseHistory(outcomes(earlier.get(event.id), entry), options.window ?? FLAKY_WINDOW);
          if (event.history.flaky) flaky.push({ id: event.id, ...nameOf(event), ...event.history.flaky });
          return writer?.add(entry);
        } else if (event.type === 'summary' && start) {
          if (flaky.length) event.flaky = flaky;
          if (options.record === false) return;
          const finishing = writer;
          writer = undefined;
          return finish(options, finishing, failure, tailOf(options, event, model));
        }
      });
      // A run that ends without a summary (a plugin failed the run) leaves no half-written record behind.
      kernel.hooks.teardown.tapPromise(PLUGIN_NAME, async () => {
        await writer?.discard().catch(() => undefined);
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

/** The fields known when the run starts, written before its cases. */
function headOf(options: HistoryPluginOptions, start: StartEvent): Partial<RecordFields> {
  return {
    input: options.input,
    suite: start.suite,
    kind: start.kind,
    agent: start.agent_id,
    connector: start.connector,
    ...(options.configHash ? { config_hash: options.configHash } : {}),
    ...(options.git ? { git: options.git } : {}),
    runs_per_case: start.runs_per_case,
  };
}

/** The fields known when the summary comes, written after the cases. */
function tailOf(
  options: HistoryPluginOptions,
  summary: SummaryEvent,
  model: string | undefined,
): Partial<RecordFields> {
  return {
    ...(model ? { model } : {}),
    started_at: summary.started_at,
    completed_at: summary.completed_at,
    duration_ms: summary.duration_ms,
    complete: summary.interrupted !== true,
    totals: {
      total: summary.total,
      passed: summary.passed,
      failed: summary.failed,
      errors: summary.errors,
      timeouts: summary.timeouts,
      skipped: summary.skipped,
    },
  };
}

function begin(options: HistoryPluginOptions, start: StartEvent): Promise<RecordWriter> {
  return options.store.begin(recordId(new Date(start.timestamp)), headOf(options, start));
}

/** Completes the record; what went wrong since the run started is one warning. */
async function finish(
  options: HistoryPluginOptions,
  writer: RecordWriter | undefined,
  failure: Error | undefined,
  tail: Partial<RecordFields>,
): Promise<void> {
  try {
    if (failure || !writer) throw failure ?? new Error('the record was not started');
    await writer.finish(tail);
  } catch (error) {
    options.onWarning?.(`could not write the run history to ${options.store.dir}: ${(error as Error).message}`);
  }
}

/** Every run's status of the case, its earlier entries' first: one array, built once per result. */
function outcomes(earlier: readonly HistoryCase[] | undefined, entry: HistoryCase): Status[] {
  // A case new to the history (every case of a first run or a fresh CI job's merge): its runs' alone, one list.
  if (!earlier?.length) return entry.runs.map((run) => run.status);
  const statuses: Status[] = [];
  for (const c of earlier) for (const run of c.runs) statuses.push(run.status);
  for (const run of entry.runs) statuses.push(run.status);
  return statuses;
}

function traceModel(result: CaseResult): string | undefined {
  for (const run of result.runs) {
    const model = run.trace?.model;
    if (typeof model === 'string') return model || undefined;
  }
  return undefined;
}

function nameOf(result: CaseResult): { name?: string } {
  return result.name && result.name !== result.id ? { name: result.name } : {};
}
