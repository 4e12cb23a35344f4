import type { AssertInput, Assertion, AssertionOutcome, HelperUse } from '@agentest/kernel';
import { parseHelperRef, resolverId } from './helper-ref.js';
import { judge } from './judge.js';
import { readJudgeSettings } from './judge-settings.js';

export const AGENT_ASSERTION_TYPE = 'agent';

const KEYS = new Set(['type', 'use', 'value', 'options', 'samples', 'message', 'negate']);

/**
 * What is wrong with how an `agent` assertion is written, as the full message, or `undefined`.
 * Called before the run, so a judge written wrongly costs no agent call.
 */
export function validateAgentAssertion(assertion: Assertion): string | undefined {
  const extra = Object.keys(assertion).find((key) => !KEYS.has(key));
  if (extra) return `invalid agent assertion: "${extra}" is not a field of it (fields: ${[...KEYS].join(', ')})`;
  const settings = readJudgeSettings(assertion);
  return 'problem' in settings ? `invalid agent assertion: ${settings.problem}` : undefined;
}

/** The judge an `agent` assertion will call, so that the run finds it before any case (none if written wrongly). */
export function agentAssertionJudge(assertion: Assertion): HelperUse[] {
  const ref = parseHelperRef(assertion.use);
  return 'problem' in ref ? [] : [{ role: 'judge', use: ref.use, ref: { id: resolverId(ref) } }];
}

/**
 * `{"type": "agent", "use": "agents:<id>" | "connector:<id>", "value": <criteria>, "options": {…},
 * "samples": k}`: the judge gets Yao's payload (the output, the case's raw input, the criteria and
 * the metadata) and answers `{"passed", "reason"}`. A judge that cannot be reached, times out,
 * answers something unreadable or splits evenly makes the assertion an error, never a verdict;
 * the kernel never negates an error.
 */
export async function checkAgentAssertion(assertion: Assertion, input: AssertInput): Promise<AssertionOutcome> {
  const settings = readJudgeSettings(assertion);
  if ('problem' in settings) return { pass: false, error: `invalid agent assertion: ${settings.problem}` };
  const { testCase, execution } = input;
  const outcome = await judge({
    output: input.output,
    // A dynamic case's assertions are its checkpoints', judged on one turn's reply: as in Yao, the
    // payload's input is then null, not the case's opening message (which was not what that turn answered).
    input: testCase.kind === 'dynamic' ? null : testCase.input,
    criteria: assertion.value,
    settings,
    resolveAgent: input.resolveAgent,
    signal: input.signal,
    chatId: `test-${testCase.id}-run${execution.run}`,
  });
  if ('error' in outcome) return { pass: false, error: outcome.error, judge: outcome.record };
  if (outcome.passed)
    return { pass: true, ...(outcome.reason ? { message: outcome.reason } : {}), judge: outcome.record };
  return {
    pass: false,
    message: outcome.reason || rejectedWithoutReason(assertion.value),
    ...(assertion.value !== undefined ? { expected: assertion.value } : {}),
    judge: outcome.record,
  };
}

/** Yao leaves the message empty when the judge gives no reason; say what was rejected instead. */
function rejectedWithoutReason(criteria: unknown): string {
  const text = typeof criteria === 'string' ? criteria : JSON.stringify(criteria ?? null);
  return `the judge rejected the output without a reason (criteria: ${text.length > 200 ? `${text.slice(0, 200)}…` : text})`;
}
