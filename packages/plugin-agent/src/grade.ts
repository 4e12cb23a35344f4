import type { AgentVerdict } from '@agentest/kernel';

/**
 * agentest-kit's standard result: what an adapter's `evaluate` returns. Every field is optional
 * here because the grading rules only read the ones that are set; adapters may add any others.
 */
export interface StandardResult {
  case_id?: string;
  query?: string;
  elapsed_ms?: number;
  /** Set when the call failed: the case is a FAIL whatever else says. */
  error?: unknown;
  structure_ok?: boolean;
  intent_matched?: boolean;
  keyword_hits?: string[];
  /** `null` means "no expected keywords": the rate is then neither graded nor averaged. */
  keyword_hit_rate?: number | null;
  /** 0–5. */
  quality_score?: number;
  failure_details?: string[];
  normalized_categories?: string[];
  raw?: unknown;
  [key: string]: unknown;
}

export type Grade = 'PASS' | 'PARTIAL' | 'FAIL';

/** A keyword hit rate below this is PARTIAL; agentest-kit hard-codes it, and exactly 0.5 passes. */
const PARTIAL_BELOW = 0.5;

/**
 * Grades an evaluation with agentest-kit's rules, in its order:
 * 1. any `error` other than undefined or null, `structure_ok === false`, or a `structure_ok`,
 *    `intent_matched` or `keyword_hit_rate` of the wrong type → FAIL (status `failed`);
 * 2. `intent_matched === false`, or a non-null `keyword_hit_rate` below 0.5 → PARTIAL;
 * 3. otherwise PASS.
 *
 * PARTIAL has status `passed`: in agentest-kit a PARTIAL is a partial success, not a failure (its
 * summary counts it apart from FAIL, and its ship verdict looks only at the metrics). Its cost is
 * not hidden: the grade is kept in the verdict and the low intent or keyword rate pulls down the
 * run's metrics, which is what thresholds judge.
 *
 * Unlike agentest-kit, a missing `structure_ok` or `intent_matched` is not held against the reply:
 * only an explicit `false` counts, so adapters that do not measure a dimension are not penalised.
 *
 * Metrics: `keyword_hit_rate` (when not null), `intent_match_rate` (1 or 0, when `intent_matched`
 * is a boolean), `quality_score`, and `latency_ms` (the evaluation's `elapsed_ms`, else `latencyMs`).
 */
export function gradeEvaluation(
  evaluation: StandardResult,
  options: { latencyMs?: number } = {},
): AgentVerdict & { grade: Grade } {
  const metrics = evaluationMetrics(evaluation, options.latencyMs);
  const details = evaluationDetails(evaluation);
  const failure = failureOf(evaluation);
  if (failure !== undefined) return { status: 'failed', grade: 'FAIL', error: failure, metrics, details };
  const reasons = partialReasons(evaluation);
  if (reasons.length)
    return { status: 'passed', grade: 'PARTIAL', metrics, details: { ...details, partial_reasons: reasons } };
  return { status: 'passed', grade: 'PASS', metrics, details };
}

/**
 * Why the evaluation is a FAIL, or undefined. Any present `error` (an empty string, `0` and `false`
 * included) is an error. A `structure_ok` the adapter set counts only when it is boolean `true`, and
 * `intent_matched` / `keyword_hit_rate` of the wrong type are refused rather than read as a pass
 * (`'false'` is a truthy string).
 */
function failureOf(evaluation: StandardResult): string | undefined {
  const error = evaluation.error;
  if (error !== undefined && error !== null) return describeError(error);
  const wrong = wrongType(evaluation);
  if (wrong) return wrong;
  if (evaluation.structure_ok !== false) return undefined;
  const lines = Array.isArray(evaluation.failure_details)
    ? evaluation.failure_details.filter((l) => typeof l === 'string' && l)
    : [];
  return lines.length ? `structure check failed: ${lines.join('; ')}` : 'structure check failed';
}

function wrongType(evaluation: StandardResult): string | undefined {
  const { structure_ok, intent_matched, keyword_hit_rate } = evaluation as Record<string, unknown>;
  const bad = (field: string, value: unknown, wanted: string) =>
    `the evaluation's ${field} is ${describeValue(value)}; it must be ${wanted}`;
  if (structure_ok !== undefined && typeof structure_ok !== 'boolean')
    return bad('structure_ok', structure_ok, 'true or false');
  if (intent_matched !== undefined && typeof intent_matched !== 'boolean')
    return bad('intent_matched', intent_matched, 'true or false');
  if (
    keyword_hit_rate !== undefined &&
    keyword_hit_rate !== null &&
    !(isNumber(keyword_hit_rate) && keyword_hit_rate >= 0 && keyword_hit_rate <= 1)
  ) {
    return bad('keyword_hit_rate', keyword_hit_rate, 'a number from 0 to 1, or null');
  }
  return undefined;
}

function partialReasons(evaluation: StandardResult): string[] {
  const reasons: string[] = [];
  if (evaluation.intent_matched === false) reasons.push('intent not matched');
  const rate = evaluation.keyword_hit_rate;
  if (typeof rate === 'number' && rate < PARTIAL_BELOW)
    reasons.push(`keyword hit rate ${(rate * 100).toFixed(1)}% < 50%`);
  return reasons;
}

function evaluationMetrics(evaluation: StandardResult, measuredMs: number | undefined): Record<string, number> {
  const metrics: Record<string, number> = {};
  if (isNumber(evaluation.keyword_hit_rate)) metrics.keyword_hit_rate = evaluation.keyword_hit_rate;
  if (typeof evaluation.intent_matched === 'boolean') metrics.intent_match_rate = evaluation.intent_matched ? 1 : 0;
  if (isNumber(evaluation.quality_score)) metrics.quality_score = evaluation.quality_score;
  const latency = isNumber(evaluation.elapsed_ms) ? evaluation.elapsed_ms : measuredMs;
  if (isNumber(latency)) metrics.latency_ms = latency;
  return metrics;
}

/** What reports show under a graded case: the diagnostics agentest-kit prints for PARTIAL and FAIL. */
function evaluationDetails(evaluation: StandardResult): Record<string, unknown> {
  const details: Record<string, unknown> = {};
  if (Array.isArray(evaluation.keyword_hits)) details.keyword_hits = evaluation.keyword_hits;
  if (Array.isArray(evaluation.failure_details) && evaluation.failure_details.length)
    details.failure_details = evaluation.failure_details;
  return details;
}

function describeError(error: unknown): string {
  if (typeof error === 'string') return error || 'the adapter reported an error with an empty message';
  if (error instanceof Error) return error.message || error.name;
  return typeof error === 'object' ? describeValue(error) : `the adapter reported error: ${String(error)}`;
}

function describeValue(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

function isNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}
