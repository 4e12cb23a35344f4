import type { Assertion, AssertInput, AssertionOutcome } from '@agentest/kernel';
import { stableStringify } from './json/stable-stringify.js';

/**
 * One assertion type: its name, a line for `--help`-style listings, and the check. The kernel applies
 * `negate`, the custom `message` and the "; " joining uniformly, so a check only judges the output.
 * A malformed assertion (a bad pattern, a missing `value`) is a failed outcome that says what to fix.
 */
export interface AssertionDefinition {
  type: string;
  description: string;
  check(assertion: Assertion, input: AssertInput): AssertionOutcome;
}

/** Only adds types. */
export function defineAssertion(definition: AssertionDefinition): AssertionDefinition {
  return definition;
}

const PREVIEW_LIMIT = 300;

/** A value as failure messages show it: compact sorted-key JSON, cut at a readable length. */
export function preview(value: unknown): string {
  const text = stableStringify(value);
  return text.length > PREVIEW_LIMIT ? `${text.slice(0, PREVIEW_LIMIT)}… (${text.length} chars)` : text;
}

/** A plain string as failure messages quote it, cut the same way. */
export function previewText(text: string): string {
  return text.length > PREVIEW_LIMIT ? `${text.slice(0, PREVIEW_LIMIT)}… (${text.length} chars)` : text;
}

/** The outcome for an assertion written wrongly: fails the run, says what to write instead. */
export function malformed(assertion: Assertion, problem: string): AssertionOutcome {
  return { pass: false, message: `invalid ${assertion.type || 'equals'} assertion: ${problem}` };
}
