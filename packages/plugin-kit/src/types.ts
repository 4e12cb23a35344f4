import type { Assertion, Expect } from '@agentest/expect';
import type { StandardResult } from '@agentest/plugin-agent';

/**
 * agentest-kit's data-driven case, as written in `cases.json` and in `test(name, data)`. Only
 * `case_id` and `query` are required; every other field, known or not, reaches the adapter.
 */
export interface JsonCase {
  case_id: string;
  query: string;
  expected_keywords?: string[];
  intent?: string;
  expected_behavior?: string;
  difficulty?: string;
  notes?: string;
  /** `true` or a reason. Skip wins over todo, as in agentest-kit. */
  skip?: boolean | string;
  todo?: boolean;
  [field: string]: unknown;
}

/** The data form of `test(name, data)`: a case without an id (the test's name gives it one). */
export type TestData = Omit<Partial<JsonCase>, 'case_id' | 'skip' | 'todo'>;

/** What `ctx.run` accepts: a query, or an object whose extra fields (`sessionId`, …) reach the adapter. */
export type RunInput =
  string | ({ query?: string; messages?: { role: string; content: unknown }[] } & Record<string, unknown>);

/**
 * What `ctx.run` resolves with: an adapter's evaluation as its `evaluate` returned it (the seed's
 * StandardResult), or, for agents without one, the reply's content, text, tool calls and raw reply.
 */
export interface RunResult extends StandardResult {
  error?: string | null;
  raw?: any;
  content?: unknown;
  text?: string;
  toolCalls?: { name: string; arguments?: unknown; result?: unknown }[];
  [field: string]: any;
}

/** The `ctx` of a test function. */
export interface TestFnContext {
  /** Calls the suite's agent; call it again for the next turn of a conversation. */
  run(input: RunInput): Promise<RunResult>;
  expect: Expect;
  /** The agent under test: its id, and where it comes from. */
  agent: { id: string; connector?: string; path?: string };
  /** The test's name. */
  name: string;
  /** A line in the test's log, shown in reports. */
  log(...args: unknown[]): void;
  /** Records a metric for this test (averaged into the run's metrics, judged by thresholds). */
  metric(name: string, value: number): void;
  /** The raw adapter, when the test runs in-process through `runSuite` (agentest-kit's `ctx.adapter`). */
  adapter?: unknown;
  /**
   * A simulated user talks to the agent: the simulator (`simulator`, else `--simulator`) plays
   * `persona` towards `goal`, turn by turn, until `until(reply)` is true, the simulator says it is
   * done, or `maxTurns` replies (default 10). Resolves with the transcript for `expect`.
   */
  simulate(options?: SimulateOptions): Promise<SimulationResult>;
}

export interface SimulateOptions {
  persona?: string;
  goal?: string;
  /** Agent replies at most (default 10). */
  maxTurns?: number;
  /** Called after each agent reply with its text; true ends the conversation. */
  until?: (reply: string, turn: number) => boolean | Promise<boolean>;
  /** The agent that plays the user (default: `--simulator`). */
  simulator?: string;
  /** The user's first message; without it the simulator opens the conversation. */
  input?: string;
  /** Anything else the simulator is told (its brief's `extra`). */
  extra?: Record<string, unknown>;
}

export interface SimulationResult {
  /** Every message in order: the user's and the agent's. */
  transcript: { role: string; content: unknown }[];
  /** Turn by turn: what the user said, what the agent replied, and how long it took. */
  turns: { turn: number; user: string | null; reply?: string; duration_ms: number }[];
  /** `until` (your condition held), `goal_achieved` (the simulated user finished) or `max_turns`. */
  ended: 'until' | 'goal_achieved' | 'max_turns';
  /** The agent's last reply, as text. */
  last: string;
}

export type TestFn = (ctx: TestFnContext) => unknown;

export type CaseStatus = 'active' | 'skip' | 'todo';

/** The fields a registration and agentest-kit's internal case share, with the original's names. */
export interface KitCaseFields {
  name: string;
  status: CaseStatus;
  fn: TestFn | null;
  query: string | null;
  expected_keywords: string[];
  intent?: string;
  expected_behavior?: string;
  difficulty?: string;
  notes?: string;
  /** Every field of the data form, unknown ones included. */
  data?: TestData;
  /** Per-test timeout in milliseconds (third argument of `test`). */
  timeoutMs?: number;
  /** `--tag` labels: the third argument's `tags`, or a data test's own `tags` field. */
  tags?: string[];
}

/** One `test()` registration, with agentest-kit's field names. */
export interface RegisteredTest extends KitCaseFields {
  id?: string;
  /** Marked with `test.only`. */
  only?: boolean;
  /** The file that registered the test, when known. */
  file?: string;
}

export type { Assertion, Expect };
