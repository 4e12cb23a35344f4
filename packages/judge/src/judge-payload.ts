import { goJsonEscape } from '@agentest/common';
import { stableStringify } from '@agentest/plugin-assert';

/** What is being judged, and where the criteria and extra context come from. */
export interface JudgeSubject {
  /** The output under judgement (any JSON value). */
  output: unknown;
  /** The case's raw `input` as written (Yao sends it unresolved); `null` where there is none. */
  input: unknown;
  /** The assertion's `value`; left out of the payload when missing or null. */
  criteria?: unknown;
  /** `options.metadata`: every key is copied to the top level and may replace the three above. */
  metadata?: Record<string, unknown>;
}

/**
 * The judge's user message, exactly as Yao builds it (`assert.go: assertAgent`): a map of `output`,
 * `input`, `criteria` (when given) and every metadata key, serialised as Go's `encoding/json` does
 * it — compact, keys sorted at every level, and `<`, `>`, `&`, U+2028 and U+2029 escaped.
 */
export function judgePayload(subject: JudgeSubject): string {
  const payload: Record<string, unknown> = { output: subject.output ?? null, input: subject.input ?? null };
  if (subject.criteria !== undefined && subject.criteria !== null) payload.criteria = subject.criteria;
  Object.assign(payload, subject.metadata ?? {});
  return goJsonEscape(stableStringify(payload));
}
