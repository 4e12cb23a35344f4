import { callBail, isThenable } from './call-taps.js';
import { errorMessage } from './errors.js';
import type { AssertInput, KernelHooks } from './hooks.js';
import type { AssertionOutcome, AssertionResult } from './types/result.js';
import type { Assertion } from './types/test-case.js';

/**
 * Runs a case's assertions through `assert.for(type)` and applies what every type shares: `negate`
 * inverts the verdict, `message` replaces the failure text. One rule holds for every type: an
 * assertion that could not be evaluated (its tap answers `error`, throws, answers something that is
 * not `{pass: boolean}`, or no plugin handles its type) is not a verdict. `negate` does not apply to
 * it and it makes the run an `error` (see `failureOf`), never a crashed run and never a pass.
 *
 * A passed assertion keeps its `type`, `message` and `metrics` but not `expected`/`actual`: those
 * explain failures, and on a passing case they would copy every output once per assertion into
 * every report. Synchronous assertion taps are called without a promise. Results are pushed into
 * `results` as they come, so a caller whose deadline passes keeps the verdicts reached; once
 * the run is stopped (its deadline or a hard stop), no further assertion is started. Whether it was is
 * asked of the run itself, not of `input.signal`: that would make the run's signal, which costs more
 * than a fast assertion.
 */
export function assertAll(
  hooks: KernelHooks,
  assertions: readonly Assertion[],
  input: AssertInput,
  run: { readonly aborted: boolean },
  results: AssertionResult[] = [],
): AssertionResult[] | Promise<AssertionResult[]> {
  for (let i = 0; i < assertions.length; i++) {
    const assertion = assertions[i]!;
    const hook = hooks.assert.get(assertion.type);
    let outcome: AssertionOutcome | undefined | Promise<AssertionOutcome | undefined>;
    try {
      outcome = hook ? callBail<AssertionOutcome>(hook, assertion, input) : undefined;
    } catch (error) {
      results.push(crashed(assertion, error));
      continue;
    }
    if (isThenable(outcome)) return finishAsync(hooks, assertions, input, run, results, i, outcome);
    results.push(judged(assertion, outcome));
  }
  return results;
}

async function finishAsync(
  hooks: KernelHooks,
  assertions: readonly Assertion[],
  input: AssertInput,
  run: { readonly aborted: boolean },
  results: AssertionResult[],
  from: number,
  pending: Promise<AssertionOutcome | undefined>,
): Promise<AssertionResult[]> {
  for (let i = from; i < assertions.length; i++) {
    if (i > from && run.aborted) break;
    const assertion = assertions[i]!;
    try {
      const hook = hooks.assert.get(assertion.type);
      const outcome =
        i === from ? await pending : hook ? await callBail<AssertionOutcome>(hook, assertion, input) : undefined;
      results.push(judged(assertion, outcome));
    } catch (error) {
      results.push(crashed(assertion, error));
    }
  }
  return results;
}

/** A throwing assert tap: the assertion is unjudged, its reason naming the plugin (`plugin "x" failed in hook …`). */
function crashed(assertion: Assertion, error: unknown): AssertionResult {
  return unjudged(assertion, errorMessage(error));
}

function judged(assertion: Assertion, outcome: AssertionOutcome | undefined): AssertionResult {
  if (!outcome) return unjudged(assertion, `no plugin handles assertion type "${assertion.type}"`);
  if (outcome.error !== undefined) {
    const result = unjudged(assertion, outcome.error || 'no reason given', outcome.actual);
    if (outcome.judge) result.judge = outcome.judge;
    return result;
  }
  if (typeof outcome.pass !== 'boolean')
    return unjudged(assertion, `its plugin answered ${describe(outcome)} instead of {pass: boolean}`);
  const pass = assertion.negate ? !outcome.pass : outcome.pass;
  let message = outcome.message;
  if (assertion.negate) message = pass ? 'negated assertion passed' : `negated: ${outcome.message ?? assertion.type}`;
  if (!pass && assertion.message) message = assertion.message;
  if (pass) {
    const result = (message === undefined ? { pass } : { pass, message }) as AssertionResult;
    if (outcome.metrics) result.metrics = outcome.metrics;
    if (outcome.judge) result.judge = outcome.judge;
    result.type = assertion.type;
    if (assertion.negate) result.negate = true;
    return result;
  }
  return {
    ...outcome,
    type: assertion.type,
    ...(assertion.negate ? { negate: true } : {}),
    pass,
    ...(message === undefined ? {} : { message }),
  };
}

/** An assertion that could not be evaluated: no verdict, whatever `negate` and `message` say. */
function unjudged(assertion: Assertion, reason: string, actual?: unknown): AssertionResult {
  const result: AssertionResult = {
    type: assertion.type,
    pass: false,
    error: reason,
    message: `${assertion.type || 'equals'} assertion could not be evaluated: ${reason}`,
  };
  if (assertion.negate) result.negate = true;
  if (actual !== undefined) result.actual = actual;
  return result;
}

function describe(outcome: unknown): string {
  try {
    return JSON.stringify(outcome)?.slice(0, 200) ?? String(outcome);
  } catch {
    return String(outcome);
  }
}

/**
 * What a run's assertions make of it: `undefined` when all passed; otherwise the messages of the
 * ones that did not pass, joined with "; ", and `error` when any could not be evaluated (else `failed`).
 */
export function failureOf(
  results: readonly AssertionResult[],
): { status: 'failed' | 'error'; text: string } | undefined {
  let text: string | undefined;
  let status: 'failed' | 'error' = 'failed';
  for (const r of results) {
    if (r.pass) continue;
    if (r.error !== undefined) status = 'error';
    const message = r.message ?? `${r.type} assertion failed`;
    text = text === undefined ? message : `${text}; ${message}`;
  }
  return text === undefined ? undefined : { status, text };
}
