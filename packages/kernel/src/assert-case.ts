import { AgentestError, errorMessage } from './errors.js';
import type { AssertInput, KernelHooks } from './hooks.js';
import type { AssertionResult } from './types/result.js';
import type { Assertion } from './types/test-case.js';

/**
 * Runs a case's assertions through `assert.for(type)` and applies what every type shares: `negate`
 * inverts the verdict, `message` replaces the failure text. A throwing assertion is a failed
 * assertion with the reason, never a crashed run.
 */
export async function assertAll(hooks: KernelHooks, assertions: readonly Assertion[], input: AssertInput): Promise<AssertionResult[]> {
  const results: AssertionResult[] = [];
  for (const assertion of assertions) results.push(await assertOne(hooks, assertion, input));
  return results;
}

async function assertOne(hooks: KernelHooks, assertion: Assertion, input: AssertInput): Promise<AssertionResult> {
  const hook = hooks.assert.get(assertion.type);
  const base = { type: assertion.type, ...(assertion.negate ? { negate: true } : {}) };
  let outcome;
  try {
    outcome = hook ? await hook.promise(assertion, input) : undefined;
  } catch (error) {
    const reason = error instanceof AgentestError && error.code === 'PLUGIN_ERROR' ? errorMessage(error.cause) : errorMessage(error);
    return { ...base, pass: false, message: assertion.message ?? `${assertion.type} assertion could not run: ${reason}` };
  }
  if (!outcome) {
    return { ...base, pass: false, message: `no plugin handles assertion type "${assertion.type}"` };
  }
  const pass = assertion.negate ? !outcome.pass : outcome.pass;
  let message = outcome.message;
  if (assertion.negate) message = pass ? 'negated assertion passed' : `negated: ${outcome.message ?? assertion.type}`;
  if (!pass && assertion.message) message = assertion.message;
  return { ...outcome, ...base, pass, ...(message === undefined ? {} : { message }) };
}

/** The failure text of a run: the messages of its failed assertions, joined with "; ". */
export function failureText(results: readonly AssertionResult[]): string | undefined {
  const failed = results.filter((r) => !r.pass);
  return failed.length ? failed.map((r) => r.message ?? `${r.type} assertion failed`).join('; ') : undefined;
}
