import {
  AgentestError,
  type Agent,
  type AgentestPlugin,
  type PlanContext,
  type ResultEvent,
  type RunEvent,
  type RunPlan,
  type StartEvent,
  type Summary,
  type SummaryEvent,
  type Suite,
  type TestCase,
  type TestContext,
  type UsageTotals,
} from '@agentest/kernel';
import { isUnasserted } from '@agentest/kernel/results';
import { addTotals, emptyTotals } from '@agentest/cassettes';
import { SERIALISED_LINE, type SerialisedLine } from '@agentest/reporter-jsonl';
import type { ShardSet } from './check-blobs.js';
import { BLOB_RUN_KEY, sameLine } from './lean-result.js';
import { leanRecorded, LeanRecorded } from './lean-replay.js';
import { parseRecorded, type RecordedLine } from './read-blob.js';

export const MERGE_PLUGIN = 'agentest:merge';

/** Before every other report tap: reporters, and the plugins that add to events, hear the shards' clock. */
const BEFORE_EVERYTHING = -1000;

/**
 * The merged run as a plan the kernel runs like any other: its suite is the shards' cases in suite
 * order, and each case's runs are answered from its recorded results. The kernel then does what it
 * does for a live run: folds each case's runs into its status, metrics and stability figures, counts
 * the summary, judges the thresholds, and hands every event to the reporters.
 *
 * The cases stream: each recorded result is parsed as its case is replayed and let go once its result
 * is reported, so a merge holds the results in flight, not the whole run.
 */
export function replayShards(
  set: ShardSet,
  cwd: string,
  options: ReplayOptions = {},
): { plan: RunPlan; plugin: AgentestPlugin } {
  const first = set.blobs[0]!;
  const start = first.start ?? noStart(first.file);
  const replay = new CaseStream(set);
  const suite: Suite = {
    name: start.suite,
    needsAgent: start.kind === 'agent',
    // The thresholds were checked when the shards ran; a custom metric name is judged, not refused.
    customMetrics: true,
    cases: () => replay.cases(),
    ...(start.meta ? { meta: start.meta } : {}),
  };
  const plan: RunPlan = {
    input: { input: start.suite, cwd },
    suite,
    agent: { id: start.agent_id, ...(start.connector ? { connector: start.connector } : {}) },
    runs: start.runs_per_case,
    parallel: start.parallel,
    failFast: false,
    env: {},
    context: recordedContext(start),
    verbose: false,
    ...(first.header.thresholds ? { thresholds: first.header.thresholds } : {}),
  };
  return { plan, plugin: replayPlugin(set, start, replay, options) };
}

export interface ReplayOptions {
  /**
   * False when the merge keeps a run history, which then decides the flaky cases as a run's does;
   * otherwise the shards' own are the run's (default).
   */
  flakyFromShards?: boolean;
  /**
   * False when plugins of the config's own hear the merged run: one may change a recorded value in
   * place, which comparing the merged record with its line cannot see, so every line is serialised
   * again. Otherwise a case's recorded line is offered to the JSONL report (default).
   */
  passThrough?: boolean;
  /**
   * Asked when the run starts: true when the merged run's reports read nothing of a passed case but
   * its status, figures and history (see lean-replay.ts), so a passed case with an index in its line
   * (blob format 3) is replayed from the index alone. Default: every line is parsed whole.
   */
  lean?: () => boolean;
}

/** A recorded case's place in the merged run: its blob and its result line. */
interface Slot {
  position: number;
  file: string;
  id: string;
  line: RecordedLine;
}

/**
 * The merged suite's cases, in the order of the whole suite. The kernel reads a suite twice: first to
 * check it (every kind has an executor), when an outline of each case (its id and kind, where its
 * result is in the blob) is all it looks at, then, once the run has started, to run it, when each case
 * is parsed from its blob line as it is pulled.
 */
class CaseStream {
  private readonly slots: Slot[];
  private started = false;
  /**
   * The recorded results of the cases being replayed (and their lines), oldest first, until their result
   * is reported: at most the run's parallel cases, and most often one, taken from the front.
   */
  private readonly inFlight: { id: string; recorded: Recorded | LeanRecorded }[] = [];
  private lean = false;
  readonly kinds = new Set<string>();
  private usage?: UsageTotals;
  private readonly unpriced = new Set<string>();

  constructor(set: ShardSet) {
    const slots: Slot[] = [];
    for (const blob of set.blobs) {
      const { cases, positions } = blob.header;
      for (let i = 0; i < cases.length; i++) {
        const line = blob.results.get(cases[i]!)!;
        this.kinds.add(line.kind);
        slots.push({ position: positions[i]!, file: blob.file, id: cases[i]!, line });
      }
    }
    this.slots = slotsInSuiteOrder(slots);
  }

  *cases(): Generator<TestCase> {
    for (const slot of this.slots) yield this.started ? this.replayed(slot) : outline(slot);
  }

  /** The run has started: from now on the suite is read to be run, passed cases from their index when `lean`. */
  start(lean: boolean): void {
    this.started = true;
    this.lean = lean;
  }

  /** The recorded result of a case being replayed, and its line, handed over once: its result is being reported. */
  take(id: string): Recorded | LeanRecorded {
    let at = 0;
    while (at < this.inFlight.length && this.inFlight[at]!.id !== id) at++;
    const taken = this.inFlight[at]?.recorded ?? noCase();
    if (at === 0) this.inFlight.shift();
    else this.inFlight.splice(at, 1);
    this.addUsage(taken.result.usage as UsageTotals | undefined);
    return taken;
  }

  /** The run's tokens and cost: the sum of its cases' (each shard metered its own calls). */
  totalUsage(): UsageTotals | undefined {
    if (this.usage && this.unpriced.size) this.usage.unpriced = [...this.unpriced].sort();
    return this.usage;
  }

  private replayed(slot: Slot): TestCase {
    const lean = this.lean ? leanRecorded(slot.file, slot.id, slot.line) : undefined;
    if (lean) {
      this.inFlight.push({ id: slot.id, recorded: lean });
      return lean.testCase();
    }
    const recorded = new Recorded(parseRecorded(slot.file, slot.line), slot.line.text);
    this.inFlight.push({ id: slot.id, recorded });
    return caseOf(recorded.result);
  }

  private addUsage(usage: UsageTotals | undefined): void {
    if (!usage) return;
    // The models without a price are gathered apart, to be listed sorted whatever the shards' order.
    addTotals((this.usage ??= emptyTotals()), { ...usage, unpriced: [] });
    for (const model of usage.unpriced ?? []) this.unpriced.add(model);
  }
}

/**
 * The slots by their place in the suite. The shards' places are the suite's 0…n-1 between them, so
 * each slot is put at its own; places of another kind (gaps, repeats) are sorted instead.
 */
function slotsInSuiteOrder(slots: Slot[]): Slot[] {
  const placed = new Array<Slot | undefined>(slots.length).fill(undefined);
  for (const slot of slots) {
    const { position } = slot;
    if (!Number.isInteger(position) || position < 0 || position >= slots.length || placed[position])
      return slots.sort((a, b) => a.position - b.position);
    placed[position] = slot;
  }
  return placed as Slot[];
}

/** What the kernel's check of the suite reads of a case, pointing at its result in the blob. */
function outline({ id, file, line }: Slot): TestCase {
  return { id, kind: line.kind, input: undefined, messages: [], source: { file, line: line.line } };
}

function caseOf(result: ResultEvent): TestCase {
  // Assigned one by one, in this order: a case per result, without a spread object per optional field.
  const testCase = { id: result.id, kind: result.kind } as TestCase;
  if (result.name !== undefined) testCase.name = result.name;
  testCase.input = result.input;
  testCase.messages = [];
  if (result.expected !== undefined) testCase.expected = result.expected;
  if (result.metadata) testCase.metadata = result.metadata;
  if (result.tags) testCase.tags = result.tags;
  testCase.source = result.source;
  if (result.status === 'skipped' && result.runs.length === 0) testCase.skip = result.skip_reason ?? true;
  if (result.todo) testCase.todo = true;
  // So that the merged summary counts it again (its warning is restored with the recorded fields).
  if (isUnasserted(result)) testCase.unasserted = true;
  // The kernel reports these runs as the case's (a case a run policy stopped early has the runs it had).
  testCase.recordedRuns = result.runs;
  return testCase;
}

function replayPlugin(set: ShardSet, start: StartEvent, replay: CaseStream, options: ReplayOptions): AgentestPlugin {
  const agent: Agent = {
    id: start.agent_id,
    ...(start.connector ? { connector: start.connector } : {}),
    run: () => Promise.reject(new AgentestError('INTERNAL', 'agentest merge calls no agent')),
  };
  // The kernel checks every kind has an executor; a replayed case has its recorded runs, and runs none.
  const executor = () => {
    throw new AgentestError('INTERNAL', 'agentest merge executes no case: each is replayed from its recorded runs');
  };
  const clock = shardsClock(set);
  return {
    name: MERGE_PLUGIN,
    enforce: 'pre',
    apply({ hooks }) {
      hooks.resolve.tap(MERGE_PLUGIN, () => agent);
      for (const kind of replay.kinds) hooks.execute.for(kind).tap(MERGE_PLUGIN, executor);
      hooks.summary.tap({ name: MERGE_PLUGIN, stage: BEFORE_VERDICT }, (summary: Summary) => ({
        ...summary,
        ...shardsHalted(set),
      }));
      hooks.report.tap({ name: MERGE_PLUGIN, stage: BEFORE_EVERYTHING }, (event: RunEvent) => {
        if (event.type === 'start') {
          replay.start(options.lean?.() === true && options.passThrough !== false);
          event.timestamp = clock.started;
          if (start.hook_logs) event.hook_logs = start.hook_logs;
        } else if (event.type === 'result') replayedResult(event, replay.take(event.id), options.passThrough !== false);
        else if (event.type === 'summary')
          Object.assign(event, clock.summary(), shardsSummary(set, replay, options.flakyFromShards !== false));
      });
    },
  };
}

/** A case's recorded result and its line, which the JSONL report writes as it is when the merged record is the same. */
class Recorded implements SerialisedLine {
  constructor(
    readonly result: ResultEvent,
    private readonly text: string,
  ) {}

  line(record: Record<string, unknown>): string | undefined {
    return sameLine(record, this.result as unknown as Record<string, unknown>, this.text);
  }
}

/**
 * The merged result: the recorded fields restored, and, for a lean line (one run per case), the line
 * offered to the JSONL report, which writes it as it is when the merged record is the recorded one.
 */
function replayedResult(event: ResultEvent, recorded: Recorded | LeanRecorded, passThrough: boolean): void {
  restoreCaseFields(event, recorded.result);
  if (
    recorded instanceof LeanRecorded ||
    (passThrough && (recorded.result as unknown as Record<string, unknown>)[BLOB_RUN_KEY])
  )
    (event as { [SERIALISED_LINE]?: SerialisedLine })[SERIALISED_LINE] = recorded;
}

/**
 * What the kernel cannot recompute, since it comes from outside the runs (hooks' warnings and logs, the
 * usage meter, the run history, a run policy's reasons), copied from the recorded result.
 */
function restoreCaseFields(event: ResultEvent, result: Partial<Record<RestoredField, unknown>>): void {
  for (const key of RESTORED) {
    if (result[key] !== undefined) (event as unknown as Record<string, unknown>)[key] = result[key];
  }
  // Assigned, not deleted: deleting a key would turn every result into a slow dictionary object.
  if (result.run_policy || event.run_policy) event.run_policy = result.run_policy as ResultEvent['run_policy'];
}

type RestoredField = 'warnings' | 'hook_logs' | 'usage' | 'history' | 'run_policy';
const RESTORED = ['warnings', 'hook_logs', 'usage', 'history'] as const;

/** Before the verdict, which does not ship a run stopped early. */
const BEFORE_VERDICT = -100;

/**
 * A shard a plugin halted (a budget) recorded the cases it never started as skipped, `not run: …`: the
 * merged run is stopped early too, with the shards' reasons and their count of cases not run.
 */
function shardsHalted(set: ShardSet): Pick<Summary, 'halted' | 'not_run'> {
  const halted = set.blobs.flatMap(({ summary }) => (summary?.halted !== undefined ? [summary] : []));
  if (!halted.length) return {};
  return {
    halted: [...new Set(halted.map((summary) => summary.halted))].join('; '),
    not_run: halted.reduce((sum, summary) => sum + (summary.not_run ?? 0), 0),
  };
}

/** The merged run's clock: from the first shard's start to the last shard's end, not the merge's own. */
function shardsClock(set: ShardSet) {
  const starts = set.blobs.map((b) => b.start?.timestamp).filter((t): t is string => t !== undefined);
  const ends = set.blobs.map((b) => b.summary?.completed_at).filter((t): t is string => t !== undefined);
  const started = starts.sort()[0] ?? new Date().toISOString();
  const completed = ends.sort().at(-1) ?? started;
  return {
    started,
    summary: () => ({
      started_at: started,
      completed_at: completed,
      duration_ms: Math.max(0, Date.parse(completed) - Date.parse(started)),
    }),
  };
}

/**
 * What the shards' summaries hold that no run does: each shard's robustness (`--fuzz`, and the cases it
 * did not fuzz) and flaky cases (from the history) are about its own cases, so the run's are all of them
 * (the flaky ones unless the merge's own history decides them); its usage is its cases' sum.
 */
function shardsSummary(
  set: ShardSet,
  replay: CaseStream,
  flakyFromShards: boolean,
): Pick<SummaryEvent, 'usage' | 'robustness' | 'not_fuzzed' | 'flaky'> {
  const summaries = set.blobs.map((blob) => blob.summary);
  const robustness = inSuiteOrder(
    set,
    summaries.flatMap((summary) => summary?.robustness ?? []),
  );
  const notFuzzed = inSuiteOrder(
    set,
    summaries.flatMap((summary) => summary?.not_fuzzed ?? []),
  );
  const flaky = flakyFromShards ? summaries.flatMap((summary) => summary?.flaky ?? []) : [];
  const usage = replay.totalUsage();
  return {
    ...(usage ? { usage } : {}),
    ...(robustness.length ? { robustness } : {}),
    ...(notFuzzed.length ? { not_fuzzed: notFuzzed } : {}),
    ...(flaky.length ? { flaky } : {}),
  };
}

/**
 * The shards' robustness (or not-fuzzed) entries in the order of their cases in the suite, as one
 * unsharded run lists them.
 */
function inSuiteOrder<T extends { id: string }>(set: ShardSet, entries: T[]): T[] {
  // Most runs have none: no map of every case's place is made for them.
  if (entries.length < 2) return entries;
  const position = new Map<string, number>();
  for (const { header } of set.blobs) header.cases.forEach((id, i) => position.set(id, header.positions[i]!));
  return entries.sort((a, b) => (position.get(a.id) ?? Infinity) - (position.get(b.id) ?? Infinity));
}

/** The start event's environment as the shards recorded it; no case calls an agent, so no context is made. */
function recordedContext(start: StartEvent): PlanContext {
  return { environment: start.environment, forAgent: () => () => ({}) as TestContext };
}

function noCase(): never {
  throw new AgentestError('INTERNAL', 'agentest merge heard a result of a case it did not replay');
}

function noStart(file: string): never {
  throw new AgentestError('BLOB_INVALID', `${file}: the blob has no start event: the shard stopped before it began`, {
    where: file,
  });
}
