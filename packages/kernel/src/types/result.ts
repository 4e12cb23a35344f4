import type { AgentReply, TokenUsage } from './agent.js';
import type { SourceLocation } from './test-case.js';
import type { ToolCall } from './message.js';
import type { UsageTotals } from './run.js';
import type { CaseVariance } from '../variance.js';

export type { CaseVariance };

export type Status = 'passed' | 'failed' | 'error' | 'timeout' | 'skipped';

/**
 * What an assertion tap returns; the kernel adds `type`, applies `negate` and `message`.
 *
 * A tap that cannot judge the output (it is not JSON, a path cannot be evaluated, a script threw)
 * says so with `error` instead of answering `pass: false`: *could not judge* is not *judged false*.
 * The kernel then ignores `pass`, `negate` and `message`, and the run becomes an `error` naming the
 * reason, so a negated assertion never passes because its check broke.
 */
export interface AssertionOutcome {
  pass: boolean;
  /** Set when the assertion could not be evaluated: why. */
  error?: string;
  message?: string;
  expected?: unknown;
  actual?: unknown;
  /** Metrics this assertion contributes to the run (e.g. `keyword_hit_rate`). */
  metrics?: Record<string, number>;
  /** How an agent-judged assertion was judged; kept whatever the verdict. */
  judge?: JudgeRecord;
}

/**
 * How a judge (an agent or connector asked for a verdict) reached it: who judged, with which model
 * parameters and prompt, how many samples were asked and how they voted, and what it cost. The
 * judge's calls are counted here, never in the agent's `usage` or `duration_ms`.
 */
export interface JudgeRecord {
  /** `agents:<id>` or `connector:<id>`. */
  use: string;
  model?: string;
  temperature?: number;
  /** The seed of the first sample; sample i is asked with seed + i. */
  seed?: number;
  /** `sha256:` and 16 hex digits of the messages sent (the seed aside): equal hashes asked the same question. */
  prompt_hash: string;
  samples: number;
  votes: { passed: number; failed: number; errors: number };
  /** The majority's share, as `2/3`; with errors or a tie there is no majority. */
  agreement: string;
  /** Wall time of the judge's calls (samples run concurrently). */
  duration_ms: number;
  calls: number;
  usage?: TokenUsage;
  /** Each sample: its verdict and reason, or the error with the reply quoted. */
  replies: JudgeSample[];
}

export interface JudgeSample {
  passed?: boolean;
  reason?: string;
  error?: string;
  /** The judge's parsed reply (`passed`, `reason`, `score`, …). */
  response?: Record<string, unknown>;
  duration_ms: number;
}

/** What a run's judges cost, apart from the agent's own calls. */
export interface JudgeUsage {
  calls: number;
  duration_ms: number;
  usage?: TokenUsage;
}

export interface AssertionResult extends AssertionOutcome {
  type: string;
  negate?: boolean;
}

/** One run of one case. Failures are data here, never throws. */
export interface Execution {
  run: number;
  status: Status;
  duration_ms: number;
  output?: unknown;
  /**
   * For a case written without an input, the input this run opened with (a dynamic case whose
   * simulated user spoke first): the case's result reports its first run's.
   */
  input?: unknown;
  error?: string;
  assertions: AssertionResult[];
  metrics: Record<string, number>;
  logs?: string[];
  tool_calls?: ToolCall[];
  usage?: TokenUsage;
  /** The judges' calls in this run (agent-judged assertions), counted apart from `usage` and `duration_ms`. */
  judge?: JudgeUsage;
  trace?: Record<string, unknown>;
  /** How many retries the connector needed (rate limits, 5xx). */
  retries?: number;
  /** The full reply, for reporters that want it; never serialised by default. */
  reply?: AgentReply;
  /** Executor-specific extras (script assertion info, PARTIAL verdicts, …) kept in reports. */
  details?: Record<string, unknown>;
}

export type StabilityClass = 'stable' | 'mostly_stable' | 'unstable' | 'highly_unstable';

/** The seed's stability block, plus pass^k and a Wilson interval. */
export interface Stability {
  runs: number;
  passed: number;
  failed: number;
  pass_rate: number;
  consistency: number;
  stable: boolean;
  stability_class: StabilityClass;
  avg_duration_ms: number;
  min_duration_ms: number;
  max_duration_ms: number;
  std_deviation_ms: number;
  /** Probability that k independent runs all pass, estimated as (passed/runs)^k for k = runs. */
  pass_hat_k: number;
  /** 95% Wilson score interval for the pass rate, in percent. */
  pass_rate_ci: [number, number];
}

/** One case with all its runs: the `result` event and the report's `results[]` entry. */
export interface CaseResult {
  id: string;
  kind: string;
  name?: string;
  status: Status;
  input: unknown;
  expected?: unknown;
  output?: unknown;
  error?: string;
  duration_ms: number;
  source: SourceLocation;
  assertions: AssertionResult[];
  metrics: Record<string, number>;
  metadata?: Record<string, unknown>;
  /** The case's tags, as `--tag` selects by. */
  tags?: string[];
  /** Why a skipped case was skipped; `todo` marks a placeholder (`test.todo`, `"todo": true`). */
  skip_reason?: string;
  todo?: boolean;
  runs: Execution[];
  stability?: Stability;
  /** For a judged case: the agent's pass rate across runs, apart from the judges' agreement across samples. */
  variance?: CaseVariance;
  /** Problems that did not change the verdict, e.g. an After hook that failed, or a case with no assertion. */
  warnings?: string[];
  /** What the case's Before and After hooks printed. */
  hook_logs?: { before?: string[]; after?: string[] };
  /**
   * From the run history: this case's latest outcomes (oldest first, this run's included) and, when
   * they flip, how flaky it is.
   */
  history?: CaseHistory;
  /** With a run policy (`--runs auto`): how many runs the case needed of the most it could get, and why it stopped. */
  run_policy?: { runs: number; max: number; decision?: string; reason?: string };
  /** Tokens and cost of the case's model calls (all runs, judges included), when a usage meter is on. */
  usage?: UsageTotals;
}

/** How often a case's outcome flipped between consecutive runs of the same agent, config and model. */
export interface Flakiness {
  flips: number;
  transitions: number;
  flip_rate: number;
  /** 95% Wilson interval of the flip rate, as fractions. */
  flip_rate_ci: [number, number];
}

/** A case's outcomes over its recent runs, from the history (one status per run, oldest first). */
export interface CaseHistory {
  recent: Status[];
  flaky?: Flakiness;
}
