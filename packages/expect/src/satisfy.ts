import { AssertionError } from './assertion-error.js';
import { show } from './format.js';

/** How `toSatisfy` is judged: who judges, and the judge settings of the `agent` assertion. */
export interface SatisfyOptions {
  /** `agents:<id>` (an assistant or config agent) or `connector:<id>` (built-in judge prompt). */
  judge: string;
  /** Ask the judge k times at once and take the majority (default 1). */
  samples?: number;
  temperature?: number;
  seed?: number;
  /** The judge's time limit: `"30s"` or milliseconds. */
  timeout?: string | number;
  /** The connector an assistant judge uses. */
  connector?: string;
  /** Extra keys for the judge's payload. */
  metadata?: Record<string, unknown>;
}

/** What a judge runner is asked: the output to judge and how. */
export interface SatisfyRequest extends SatisfyOptions {
  output: unknown;
  criteria: unknown;
}

/** A verdict with its reason, or why the judge gave none. */
export type SatisfyVerdict = { passed: boolean; reason: string } | { error: string };

export type JudgeRunner = (request: SatisfyRequest) => Promise<SatisfyVerdict>;

let runner: JudgeRunner | undefined;

/**
 * Sets who answers `toSatisfy` (agentest's test runner does, for each test it runs). Returns the
 * runner it replaced. Used on its own, `@agentest/expect` has no judge, and `toSatisfy` says so.
 */
export function setJudgeRunner(next: JudgeRunner | undefined): JudgeRunner | undefined {
  const previous = runner;
  runner = next;
  return previous;
}

/** Thrown when the judge gave no verdict: the test is an error, whatever `.not` says. */
export class JudgeError extends Error {
  override readonly name = 'JudgeError';
}

/**
 * `await expect(reply).toSatisfy(criteria, { judge })`: a judge decides whether the reply meets the
 * criteria. The reply's response (`raw`, `content` or `text` of an agent result, or the value
 * itself) is judged. A rejection fails the expectation (a pass does under `.not`); a judge that
 * cannot be reached, times out, answers something unreadable or splits evenly throws a `JudgeError`,
 * which `.not` never turns into a pass.
 */
export async function satisfy(
  received: unknown,
  negated: boolean,
  criteria: unknown,
  options: SatisfyOptions,
): Promise<void> {
  const matcher = negated ? 'not.toSatisfy' : 'toSatisfy';
  if (typeof options?.judge !== 'string' || !options.judge)
    throw new TypeError(`${matcher}(criteria, { judge }) needs a judge: "agents:<id>" or "connector:<id>"`);
  if (!runner)
    throw new JudgeError(`${matcher}: no judge runner here; run the test with agentest (a test() file or runSuite)`);
  const output = responseOf(received);
  const verdict = await runner({ ...options, output, criteria });
  if ('error' in verdict) throw new JudgeError(verdict.error);
  if (verdict.passed !== negated) return;
  const why = verdict.reason ? `: ${verdict.reason}` : '';
  throw new AssertionError(
    `expected ${show(output)} ${negated ? 'not ' : ''}to satisfy ${show(criteria)} (judge ${options.judge}${why})`,
    { matcher, expected: criteria, actual: output },
  );
}

/** An agent result's response (as the AI matchers read it), else the value itself. */
function responseOf(received: unknown): unknown {
  if (typeof received !== 'object' || received === null || Array.isArray(received)) return received;
  const result = received as Record<string, unknown>;
  for (const key of ['raw', 'content', 'text']) {
    const value = result[key];
    if (value !== undefined && value !== null && value !== '') return value;
  }
  return received;
}
