import {
  AgentestError,
  type Agent,
  type AgentestPlugin,
  type Execution,
  type PlanContext,
  type ResultEvent,
  type RunEvent,
  type RunPlan,
  type StartEvent,
  type SummaryEvent,
  type Suite,
  type TestCase,
  type TestContext,
  type UsageTotals,
} from '@agentest/kernel';
import type { ShardSet } from './check-blobs.js';

export const MERGE_PLUGIN = 'agentest:merge';

/** Before every other report tap: reporters, and the plugins that add to events, hear the shards' clock. */
const BEFORE_EVERYTHING = -1000;

/**
 * The merged run as a plan the kernel runs like any other: its suite is the shards' cases in suite
 * order, and each case's runs are answered from its recorded results. The kernel then does what it
 * does for a live run: folds each case's runs into its status, metrics and stability figures, counts
 * the summary, judges the thresholds, and hands every event to the reporters.
 */
export function replayShards(set: ShardSet, cwd: string): { plan: RunPlan; plugin: AgentestPlugin } {
  const first = set.blobs[0]!;
  const start = first.start ?? noStart(first.file);
  const cases = mergedCases(set);
  const partial = cases.some((c) => recorded(c).runs.length < start.runs_per_case);
  const suite: Suite = {
    name: start.suite,
    needsAgent: start.kind === 'agent',
    // The thresholds were checked when the shards ran; a custom metric name is judged, not refused.
    customMetrics: true,
    cases: () => cases,
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
    // A case that stopped early under a run policy (`--runs auto`) is replayed with the runs it had.
    ...(partial ? { runPolicy: (testCase, runs) => ({ stop: runs.length >= recorded(testCase).runs.length }) } : {}),
  };
  return { plan, plugin: replayPlugin(set, start, cases) };
}

/** Every shard's cases, in the order of the whole suite, each carrying its recorded result. */
function mergedCases(set: ShardSet): TestCase[] {
  const placed: { position: number; testCase: TestCase }[] = [];
  for (const blob of set.blobs) {
    blob.header.cases.forEach((id, i) => {
      placed.push({ position: blob.header.positions[i]!, testCase: caseOf(blob.results.get(id)!) });
    });
  }
  return placed.sort((a, b) => a.position - b.position).map((p) => p.testCase);
}

function caseOf(result: ResultEvent): TestCase {
  const notRun = result.status === 'skipped' && result.runs.length === 0;
  return {
    id: result.id,
    kind: result.kind,
    ...(result.name !== undefined ? { name: result.name } : {}),
    input: result.input,
    messages: [],
    ...(result.expected !== undefined ? { expected: result.expected } : {}),
    ...(result.metadata ? { metadata: result.metadata } : {}),
    source: result.source,
    ...(notRun ? { skip: result.skip_reason ?? true } : {}),
    ...(result.todo ? { todo: true } : {}),
    data: result,
  };
}

const recorded = (testCase: TestCase) => testCase.data as ResultEvent;

function replayPlugin(set: ShardSet, start: StartEvent, cases: readonly TestCase[]): AgentestPlugin {
  const agent: Agent = {
    id: start.agent_id,
    ...(start.connector ? { connector: start.connector } : {}),
    run: () => Promise.reject(new AgentestError('INTERNAL', 'agentest merge calls no agent')),
  };
  const kinds = new Set(cases.map((c) => c.kind));
  const byId = new Map(cases.map((c) => [c.id, recorded(c)]));
  const clock = shardsClock(set);
  return {
    name: MERGE_PLUGIN,
    enforce: 'pre',
    apply({ hooks }) {
      hooks.resolve.tap(MERGE_PLUGIN, () => agent);
      for (const kind of kinds)
        hooks.execute.for(kind).tap(MERGE_PLUGIN, (testCase, ctx) => recordedRun(recorded(testCase), ctx.run));
      hooks.report.tap({ name: MERGE_PLUGIN, stage: BEFORE_EVERYTHING }, (event: RunEvent) => {
        if (event.type === 'start') {
          event.timestamp = clock.started;
          if (start.hook_logs) event.hook_logs = start.hook_logs;
        } else if (event.type === 'result') restoreCaseFields(event, byId.get(event.id) ?? noCase());
        else if (event.type === 'summary') Object.assign(event, clock.summary(), shardsSummary(set));
      });
    },
  };
}

/** Run `n` of a case as recorded; a run the record lacks is an error on the case, never a crash. */
function recordedRun(result: ResultEvent, n: number): Execution {
  const run = result.runs[n - 1];
  if (run) return run;
  return {
    run: n,
    status: 'error',
    duration_ms: 0,
    error: 'no such run in the shard blob',
    assertions: [],
    metrics: {},
  };
}

/**
 * What the kernel cannot recompute, since it comes from outside the runs (hooks' warnings and logs, the
 * usage meter, the run history, a run policy's reasons), copied from the recorded result.
 */
function restoreCaseFields(event: ResultEvent, result: ResultEvent): void {
  for (const key of ['warnings', 'hook_logs', 'usage', 'history'] as const) {
    if (result[key] !== undefined) (event as unknown as Record<string, unknown>)[key] = result[key];
  }
  // Assigned, not deleted: deleting a key would turn every result into a slow dictionary object.
  if (result.run_policy || event.run_policy) event.run_policy = result.run_policy;
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
 * What the shards' summaries hold that no run does: each shard's robustness (`--fuzz`) and flaky cases
 * (from the history) are about its own cases, so the run's are all of them; its usage is its cases' sum.
 */
function shardsSummary(set: ShardSet): Pick<SummaryEvent, 'usage' | 'robustness' | 'flaky'> {
  const summaries = set.blobs.map((blob) => blob.summary);
  const robustness = summaries.flatMap((summary) => summary?.robustness ?? []);
  const flaky = summaries.flatMap((summary) => summary?.flaky ?? []);
  const usage = totalUsage(set);
  return {
    ...(usage ? { usage } : {}),
    ...(robustness.length ? { robustness } : {}),
    ...(flaky.length ? { flaky } : {}),
  };
}

/** The run's tokens and cost: the sum of its cases' (each shard metered its own calls). */
function totalUsage(set: ShardSet): UsageTotals | undefined {
  let total: UsageTotals | undefined;
  const unpriced = new Set<string>();
  for (const blob of set.blobs) {
    for (const { usage } of blob.results.values()) {
      if (!usage) continue;
      total ??= { calls: 0, prompt_tokens: 0, completion_tokens: 0, total_tokens: 0, cost_usd: 0 };
      total.calls += usage.calls;
      total.prompt_tokens += usage.prompt_tokens;
      total.completion_tokens += usage.completion_tokens;
      total.total_tokens += usage.total_tokens;
      total.cost_usd += usage.cost_usd;
      if (usage.replayed) total.replayed = (total.replayed ?? 0) + usage.replayed;
      for (const model of usage.unpriced ?? []) unpriced.add(model);
    }
  }
  if (total && unpriced.size) total.unpriced = [...unpriced].sort();
  return total;
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
