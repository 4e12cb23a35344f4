import type { Execution } from './result.js';
import type { Message } from './message.js';
import type { Agent, AgentRef } from './agent.js';

/** One assertion as written in a case (`{"type": "contains", "value": "x"}`); extra keys belong to its type. */
export interface Assertion {
  type: string;
  value?: unknown;
  path?: string;
  script?: string;
  message?: string;
  negate?: boolean;
  [key: string]: unknown;
}

/**
 * One checkpoint of a dynamic case: a milestone the conversation must reach. `assert` is judged on
 * each agent turn until it passes; `after` names checkpoints that must be reached first.
 */
export interface Checkpoint {
  id: string;
  description?: string;
  /** Empty: reached on the first turn it is evaluated (Yao's missing `assert`). */
  assert: Assertion[];
  after: string[];
  /** Only required checkpoints decide the verdict (default true). */
  required: boolean;
}

/** Who plays the user in a dynamic case. */
export interface SimulatorSpec {
  /** The agent id (`agents:` prefix removed): a config agent, a Yao assistant, a built-in. */
  use: string;
  connector?: string;
  /** `persona` and `goal` (strings), and anything else the simulator is passed as `extra`. */
  metadata: Record<string, unknown>;
}

/**
 * What a dynamic case carries in `TestCase.data.dynamic` (loaders fill it); its checkpoints are
 * `TestCase.checkpoints`.
 */
export interface DynamicCaseData {
  simulator: SimulatorSpec;
  max_turns: number;
}

export interface SourceLocation {
  file: string;
  line?: number;
}

/**
 * The kernel's unit of work. `kind` picks the executor (`execute.for(kind)`): `agent` cases send
 * `messages` to the suite's agent; `script` and `spec` cases run user code in the sandbox.
 */
export interface TestCase {
  id: string;
  kind: 'agent' | 'script' | 'spec' | (string & {});
  /** Display name when it differs from the id (script function names, `test()` titles). */
  name?: string;
  /** The input exactly as written, echoed into results. */
  input: unknown;
  /** `input` normalised once, at load. */
  messages: Message[];
  expected?: unknown;
  assert?: Assertion[];
  /**
   * Set by a loader on a case that has nothing to judge its reply by (a static JSONL case with neither
   * `assert` nor `expected`): it passes whatever the agent answers, as in Yao, and its result carries a
   * warning saying so; the summary counts such cases (`unasserted`).
   */
  unasserted?: boolean;
  user?: string;
  team?: string;
  metadata?: Record<string, unknown>;
  options?: Record<string, unknown>;
  /** `true`, or the reason the case is skipped. */
  skip?: boolean | string;
  todo?: boolean;
  /** A dynamic case's checkpoints; the kernel checks their assertions before the run as it checks `assert`. */
  checkpoints?: Checkpoint[];
  /** Per-case timeout; wins over the plan's and the suite's default. */
  timeoutMs?: number;
  /** Labels that `--tag` selects by (`smoke`, `billing`); non-empty strings. */
  tags?: string[];
  source: SourceLocation;
  /** Kind-specific payload the executor understands (a script's file and function, a spec's test). */
  data?: unknown;
  /**
   * The case's runs as an earlier run recorded them (`agentest merge`): the kernel reports them as its
   * runs, with their events, instead of running it (no executor, assertions, measures or deadline).
   */
  recordedRuns?: readonly Execution[];
}

/** What a `load` tap returns. `cases()` may be called more than once and must stream. */
export interface Suite {
  /** Display label: the input path, the script id, the directory. */
  name: string;
  /** `agent` suites need a resolved agent; `script` suites run without one. */
  needsAgent: boolean;
  cases(): AsyncIterable<TestCase> | Iterable<TestCase>;
  /** How to find the agent when `-n` is not given (e.g. the JSONL file's path). */
  agentHint?: AgentRef;
  /** Timeout when neither the case nor the plan gives one (5m for agent cases, 30s for scripts). */
  defaultTimeoutMs?: number;
  /** Free-form facts for reporters (script path, mode, loaded files). */
  meta?: Record<string, unknown>;
  /** Suite-level hooks (BeforeAll/AfterAll, Before/After per case) supplied by a plugin. */
  lifecycle?: SuiteLifecycle;
  /**
   * The cases may report metrics under names of their own (a kit test's `ctx.metric`), so a
   * threshold on an unknown name is judged after the run instead of refused before it.
   */
  customMetrics?: boolean;
  /**
   * The metrics one run of a case reports, replacing what its executor measured: the suite's own rule
   * for every outcome, a timeout or an error included (kit suites measure those as failures).
   */
  measure?(execution: Execution, testCase: TestCase): Record<string, number>;
}

/**
 * Optional per-suite hooks; each returns data passed on to the matching `after`. Each also gets the
 * run's resolved agent (undefined for suites that need none): Yao looks hooks up in the assistant
 * that runs the cases, which is known only after the suite is loaded. `before` and `after` run under
 * their case's deadline (see `Kernel.runCase`): `signal` fires when it passes or on a hard stop, and
 * the kernel stops waiting for the hook then. A `before` that runs out of a time limit of its own
 * throws an error named `TimeoutError`, which makes its case a timeout rather than an error.
 */
export interface SuiteLifecycle {
  beforeAll?(cases: TestCase[], agent?: Agent, log?: HookLog): Promise<unknown>;
  afterAll?(results: unknown[], beforeData: unknown, agent?: Agent, log?: HookLog): Promise<void>;
  /**
   * Whether `before` and `after` have anything to do for this case; for a case it answers `false` to,
   * the kernel calls neither (and makes no signal for them). Without it, both run for every case.
   */
  hasCaseHooks?(testCase: TestCase): boolean;
  /** Runs before each case; a case with nothing to do may answer synchronously (no promise per case). */
  before?(testCase: TestCase, agent?: Agent, signal?: AbortSignal, log?: HookLog): unknown;
  after?(
    testCase: TestCase,
    result: unknown,
    beforeData: unknown,
    agent?: Agent,
    signal?: AbortSignal,
    log?: HookLog,
  ): void | Promise<void>;
}

/**
 * Takes what a lifecycle hook printed (`console.*`, `log.*`, `ctx.Send`), also when it then failed:
 * BeforeAll's lines go on the `start` event and the summary, Before's and After's on their case.
 */
export type HookLog = (lines: readonly string[]) => void;

/** The raw `-i` value and where it was given. */
export interface InputSpec {
  input: string;
  cwd: string;
}
