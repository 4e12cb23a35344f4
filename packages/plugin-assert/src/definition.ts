import type { AgentestPlugin, Assertion, AssertInput, AssertionOutcome } from '@agentest/kernel';
import { stableStringify } from './json/stable-stringify.js';

/**
 * One assertion type: its name, a line for listings, how a well-formed assertion of it is written
 * (`validate`), and the check. The kernel applies `negate`, the custom `message` and the "; " joining
 * uniformly, so a check only judges the output.
 */
export interface AssertionDefinition {
  type: string;
  description: string;
  /**
   * What is wrong with how the assertion is written (a bad pattern, a missing `value`), as the full
   * failure message, or `undefined`. Needs no output, so a loader or `--dry-run` can call it early.
   */
  validate?(assertion: Assertion): string | undefined;
  /**
   * Judges one output; only called with assertions that `validate` accepts. An output the check
   * cannot read is answered with `error` (see `AssertionOutcome`), never with `pass: false`.
   */
  check(assertion: Assertion, input: AssertInput): AssertionOutcome;
}

/** An assertion type that is also a plugin: put it in the config's `plugins` and cases can use its `type`. */
export type AssertionPlugin = AssertionDefinition & AgentestPlugin;

/**
 * Defines an assertion type (`description` defaults to the type). The result is its own plugin,
 * named `assert:<type>`: it taps `hooks.assert.for(type)` with `validate`, so the kernel refuses a
 * malformed assertion before the run, and runs `check` on each output.
 */
export function defineAssertion(
  definition: Omit<AssertionDefinition, 'description'> & { description?: string },
): AssertionPlugin {
  const full: AssertionDefinition = { description: definition.type, ...definition };
  const name = `assert:${full.type}`;
  return {
    ...full,
    name,
    apply({ hooks }) {
      hooks.assert
        .for(full.type)
        .tap({ name, validate: (assertion: Assertion) => full.validate?.(assertion) }, (assertion, input) =>
          runAssertion(full, assertion, input),
        );
    },
  };
}

/**
 * Validates, then checks. A malformed assertion cannot be evaluated: its outcome is an `error` saying
 * what to fix (the kernel refuses such assertions before the run; this covers direct callers).
 */
export function runAssertion(
  definition: AssertionDefinition,
  assertion: Assertion,
  input: AssertInput,
): AssertionOutcome {
  const problem = definition.validate?.(assertion);
  return problem === undefined ? bounded(definition.check(assertion, input)) : { pass: false, error: problem };
}

/**
 * Longest `actual` text kept on a result. The whole output is already on the run; a copy per
 * assertion would multiply a 20 MB reply in every report.
 */
export const ACTUAL_TEXT_LIMIT = 10_000;

function bounded(outcome: AssertionOutcome): AssertionOutcome {
  const actual = outcome.actual;
  if (typeof actual !== 'string' || actual.length <= ACTUAL_TEXT_LIMIT) return outcome;
  return { ...outcome, actual: `${actual.slice(0, ACTUAL_TEXT_LIMIT)}… (${actual.length} chars)` };
}

/** The message for an assertion written wrongly: `invalid <type> assertion: <problem>`. */
export function invalid(assertion: Assertion, problem: string): string {
  return `invalid ${assertion.type || 'equals'} assertion: ${problem}`;
}

const PREVIEW_LIMIT = 300;

/** A value as failure messages show it: compact sorted-key JSON, cut at a readable length. */
export function preview(value: unknown): string {
  return previewText(stableStringify(value));
}

/** A plain string as failure messages quote it, cut the same way. */
export function previewText(text: string): string {
  return text.length > PREVIEW_LIMIT ? `${text.slice(0, PREVIEW_LIMIT)}… (${text.length} chars)` : text;
}
