import { callBail, isThenable } from './call-taps.js';
import { AgentestError, errorMessage } from './errors.js';
import type { AssertInput, KernelHooks } from './hooks.js';
import type { AssertionOutcome, AssertionResult } from './types/result.js';
import type { Assertion } from './types/test-case.js';

/**
 * Runs a case's assertions through `assert.for(type)` and applies what every type shares: `negate`
 * inverts the verdict, `message` replaces the failure text. A throwing assertion is a failed
 * assertion with the reason, never a crashed run.
 *
 * A passed assertion keeps its `type`, `message` and `metrics` but not `expected`/`actual`: those
 * explain failures, and on a passing case they would copy every output once per assertion into
 * every report. Synchronous assertion taps are called without a promise.
 */
export function assertAll(hooks: KernelHooks, assertions: readonly Assertion[], input: AssertInput): AssertionResult[] | Promise<AssertionResult[]> {
  const results: AssertionResult[] = [];
  for (let i = 0; i < assertions.length; i++) {
    const assertion = assertions[i]!;
    const hook = hooks.assert.get(assertion.type);
    let outcome: AssertionOutcome | undefined | Promise<AssertionOutcome | undefined>;
    try {
      outcome = hook ? callBail<AssertionOutcome>(hook.taps, assertion, input) : undefined;
    } catch (error) {
      results.push(crashed(assertion, error));
      continue;
    }
    if (isThenable(outcome)) return finishAsync(hooks, assertions, input, results, i, outcome);
    results.push(judged(assertion, outcome));
  }
  return results;
}

async function finishAsync(
  hooks: KernelHooks,
  assertions: readonly Assertion[],
  input: AssertInput,
  results: AssertionResult[],
  from: number,
  pending: Promise<AssertionOutcome | undefined>,
): Promise<AssertionResult[]> {
  for (let i = from; i < assertions.length; i++) {
    const assertion = assertions[i]!;
    try {
      const hook = hooks.assert.get(assertion.type);
      const outcome = i === from ? await pending : hook ? await callBail<AssertionOutcome>(hook.taps, assertion, input) : undefined;
      results.push(judged(assertion, outcome));
    } catch (error) {
      results.push(crashed(assertion, error));
    }
  }
  return results;
}

function crashed(assertion: Assertion, error: unknown): AssertionResult {
  const reason = error instanceof AgentestError && error.code === 'PLUGIN_ERROR' ? errorMessage(error.cause) : errorMessage(error);
  return withType(assertion, { pass: false, message: assertion.message ?? `${assertion.type} assertion could not run: ${reason}` });
}

function judged(assertion: Assertion, outcome: AssertionOutcome | undefined): AssertionResult {
  if (!outcome) return withType(assertion, { pass: false, message: `no plugin handles assertion type "${assertion.type}"` });
  const pass = assertion.negate ? !outcome.pass : outcome.pass;
  let message = outcome.message;
  if (assertion.negate) message = pass ? 'negated assertion passed' : `negated: ${outcome.message ?? assertion.type}`;
  if (!pass && assertion.message) message = assertion.message;
  if (pass) {
    const result = (message === undefined ? { pass } : { pass, message }) as AssertionResult;
    if (outcome.metrics) result.metrics = outcome.metrics;
    result.type = assertion.type;
    if (assertion.negate) result.negate = true;
    return result;
  }
  return { ...outcome, type: assertion.type, ...(assertion.negate ? { negate: true } : {}), pass, ...(message === undefined ? {} : { message }) };
}

function withType(assertion: Assertion, result: { pass: false; message: string }): AssertionResult {
  return { type: assertion.type, ...(assertion.negate ? { negate: true } : {}), ...result };
}

/** The failure text of a run: the messages of its failed assertions, joined with "; ". */
export function failureText(results: readonly AssertionResult[]): string | undefined {
  let text: string | undefined;
  for (const r of results) {
    if (r.pass) continue;
    const message = r.message ?? `${r.type} assertion failed`;
    text = text === undefined ? message : `${text}; ${message}`;
  }
  return text;
}
