import type { CoverageSummary } from './coverage.js';
import type { AgentRef } from './agent.js';
import type { ContextFile, Environment, PlanContext } from './context.js';
import type { CaseResult, Execution, Flakiness, Status } from './result.js';
import type { InputSpec, Suite, TestCase } from './test-case.js';

/** Everything one run needs, built by the CLI (or an embedding program) from flags and config. */
export interface RunPlan {
  input: InputSpec;
  /** Cases held in memory (`createRunPlan({ cases })`): the kernel runs this suite without asking the `load` taps. */
  suite?: Suite;
  agent?: AgentRef;
  /** Runs per case (`--runs`), ≥ 1. */
  runs: number;
  /** Cases in flight at once (`--parallel`), ≥ 1. */
  parallel: number;
  /** `--timeout`; when absent the suite's default applies. */
  timeoutMs?: number;
  /**
   * How the run's own messages write a duration (`timeout after …`). The CLI passes Go's format
   * (`5m0s`, `goDuration` of @agentest/common), as Yao prints it; without it, milliseconds (`300000ms`).
   */
  durationText?: (ms: number) => string;
  failFast: boolean;
  /** `--run`: only cases whose id (or name) matches. A `RegExp` fits; the CLI passes an RE2 matcher. */
  filter?: CaseFilter;
  /** `--tag`: only cases with one of `include` (when any) and none of `exclude`. */
  tags?: TagFilter;
  /** `-u`, `-t` and the `--ctx` file, as given. */
  env: { user?: string; team?: string; ctx?: ContextFile; ctxFile?: string };
  /** Who the run acts as (the report's environment, each run's context); `createRunPlan` builds it from `env`. */
  context?: PlanContext;
  verbose: boolean;
  /**
   * Metric name → minimum value (maximum for `_ms`); judged at the end of the run. Unknown names are refused before it.
   */
  thresholds?: Record<string, number>;
  /** The threshold names given on the command line (`--threshold`), so a wrong one is named as a flag. */
  thresholdFlags?: readonly string[];
  /**
   * A suite that focuses some of its cases (`test.only`) is an error instead of a run that silently
   * skips the rest. The CLI sets it when `CI` is set, unless `--allow-only` (Playwright's forbidOnly).
   */
  forbidOnly?: boolean;
  /** `--simulator`: the agent that plays the user in dynamic cases that name none. */
  simulator?: string;
  /** Free-form options for plugins (output path, reporter ids). */
  options?: Record<string, unknown>;
  /**
   * Decides after each run of a case whether to run it again, up to `runs` (e.g. a sequential test
   * that stops once the answer is clear). Without it every case runs `runs` times.
   */
  runPolicy?: RunPolicy;
  /**
   * Puts the selected cases in the order to run them (e.g. last failed first); the kernel then holds
   * them all in memory.
   */
  order?: (cases: TestCase[]) => TestCase[] | Promise<TestCase[]>;
  /**
   * A further selection after `--run`, decided outside the kernel (e.g. this machine's shard of the
   * suite). It sees the whole case, not only its id or name. Unlike `--run`, selecting nothing is not
   * an error: a part of a suite split across machines may hold no case.
   */
  include?: (testCase: TestCase) => boolean;
  /** Which part of a suite split across machines this run is; recorded on the start event. */
  shard?: ShardLabel;
}

/** Shard `index` of `total` (1-based), and what chose it (`--shard`, or a CI's variables). */
export interface ShardLabel {
  index: number;
  total: number;
  source: string;
  /** How the cases were split when not by the hash of their ids (`balanced by the durations in …`). */
  split?: string;
}

/**
 * Asked after each run of a case, with the runs so far and the most it may get: `stop` ends the
 * case early. The last answer is recorded on the case as `run_policy`, so reports can say why it stopped.
 */
export type RunPolicy = (testCase: TestCase, runs: readonly Execution[], max: number) => RunDecision;

export interface RunDecision {
  stop: boolean;
  /** What the policy concluded (`accepted`, `flagged`, `undecided`), for reports. */
  decision?: string;
  /** Why, in words. */
  reason?: string;
}

/** `--tag smoke --tag '!slow'`: the tags a case needs one of (OR), and those it must not have. */
export interface TagFilter {
  include: readonly string[];
  exclude: readonly string[];
}

/** What `--run` needs of a pattern: its text for messages, and a match test on ids and names. */
export interface CaseFilter {
  readonly source: string;
  test(text: string): boolean;
}

export interface Verdict {
  can_ship: boolean;
  issues: string[];
}

/** The seed's summary (Yao field names), plus stability, metrics and verdict when present. */
export interface Summary {
  total: number;
  passed: number;
  failed: number;
  skipped: number;
  errors: number;
  timeouts: number;
  duration_ms: number;
  agent_id: string;
  agent_path?: string;
  connector: string;
  runs_per_case: number;
  total_runs: number;
  overall_pass_rate: number;
  stable_cases?: number;
  unstable_cases?: number;
  metrics?: Record<string, number>;
  thresholds?: Record<string, number>;
  verdict?: Verdict;
  interrupted?: boolean;
  /** What the suite's BeforeAll and AfterAll hooks printed (an AfterAll failure included). */
  hook_logs?: { before_all?: string[]; after_all?: string[] };
  /**
   * The cases that ran with no assertion (`TestCase.unasserted`), which pass whatever the agent answers; absent
   * when none.
   */
  unasserted?: number;
  /** With `interrupted` or `halted`: the selected cases that never ran. */
  not_run?: number;
  /** Why the run stopped starting cases before the end (a budget reached); its cases not run are skipped results. */
  halted?: string;
  /** Tokens and cost of every model call of the run, when a usage meter is on. */
  usage?: UsageTotals;
  /**
   * With `--baseline`: this run compared with the baseline report (set by the baseline plugin before reporters
   * hear the summary).
   */
  comparison?: BaselineComparison;
  /**
   * With `--fuzz`: each case's verdict next to its perturbed variants' (set by the fuzz plugin before
   * reporters hear the summary).
   */
  robustness?: CaseRobustness[];
  /** With `--fuzz`: the cases that ran without variants, and why (no text message to perturb). */
  not_fuzzed?: NotFuzzedCase[];
  /** From the run history: the cases whose outcome flips between runs of the same agent, config and model. */
  flaky?: FlakyCase[];
  /** With `--coverage`: how much of the app's scripts and hooks ran, per file and in total. */
  coverage?: CoverageSummary;
}

/** One case under `--fuzz`: its own verdict, the pass rate on its variants, and the variants that broke it. */
export interface CaseRobustness {
  id: string;
  original: Status;
  variants: number;
  passed: number;
  /** Passed variants ÷ variants, 0–1. */
  pass_rate: number;
  broken?: { id: string; perturbation: string; input: unknown; status: Status; error?: string }[];
}

/** A case `--fuzz` ran as it is: a script or spec case, or one whose last user message has no text. */
export interface NotFuzzedCase {
  id: string;
  reason: string;
}

/** A flaky case in the summary: its id and how flaky it is. */
export interface FlakyCase extends Flakiness {
  id: string;
  name?: string;
}

/** Tokens and cost of model calls (a case's, or the run's). `cost_usd` counts priced models only. */
export interface UsageTotals {
  calls: number;
  /** Of `calls`, those answered from cassettes (they cost nothing now; their cost is what they cost when recorded). */
  replayed?: number;
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  cost_usd: number;
  /** Models called without a price (config `prices`): their tokens count, their cost does not. */
  unpriced?: string[];
  /**
   * Of the above, what the judges and the simulated users spent (their calls are in `calls` too), so
   * a report can tell the agent's own cost from the cost of testing it.
   */
  helpers?: { judge?: HelperUsage; simulator?: HelperUsage };
}

/** The calls, tokens and cost of one kind of helper agent (judges, simulated users) over a case or a run. */
export interface HelperUsage {
  calls: number;
  total_tokens: number;
  cost_usd: number;
}

/** The summary's `comparison` block: the verdict against the baseline and the cases that changed. */
export interface BaselineComparison {
  baseline: string;
  verdict: 'regressed' | 'improved' | 'no_significant_change' | 'not_comparable';
  reason: string;
  counts?: Record<string, number>;
  regressed?: string[];
  fixed?: string[];
  /** Cases Fisher's test (after Holm) flags, with several runs per case. */
  flagged?: { id: string; flag: 'worse' | 'better'; adjusted_p: number }[];
  pass_rate_difference?: { estimate: number; lower: number; upper: number };
}

export interface StartEvent {
  type: 'start';
  timestamp: string;
  agent_id: string;
  connector: string;
  suite: string;
  kind: string;
  total_cases: number;
  runs_per_case: number;
  parallel: number;
  environment: Environment;
  meta?: Record<string, unknown>;
  /** When the suite is split across machines: which part this run is, and what chose it. */
  shard?: ShardLabel;
  /** What the suite's BeforeAll hook printed; it runs before this event. */
  hook_logs?: { before_all: string[] };
}
export interface CaseStartEvent {
  type: 'case_start';
  id: string;
  name?: string;
  run: number;
  runs: number;
}
export interface RunResultEvent {
  type: 'run_result';
  id: string;
  name?: string;
  runs: number;
  execution: Execution;
}
export interface ResultEvent extends CaseResult {
  type: 'result';
}
export interface SummaryEvent extends Summary {
  type: 'summary';
  started_at: string;
  completed_at: string;
}

/** One vocabulary everywhere: the `.jsonl` output is exactly these events, one per line. */
export type RunEvent = StartEvent | CaseStartEvent | RunResultEvent | ResultEvent | SummaryEvent;

/**
 * What `kernel.run()` resolves with: facts, not a policy. The CLI's `outcomeExitCode` turns them into
 * its exit code (130 interrupted, 3 an error below, 1 a failure or DO NOT SHIP, 0 otherwise).
 */
export interface RunOutcome {
  /** The summary reporters heard: the counts, `verdict` when thresholds were judged, `interrupted`. */
  summary: SummaryEvent;
  /** Errors raised by reporters, teardown taps or `reportError`; the run's verdicts stand. */
  errors: Error[];
}

export type { Status };
