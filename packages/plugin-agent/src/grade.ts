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
 * 1. `error` truthy, or `structure_ok === false` → FAIL (status `failed`);
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
export function gradeEvaluation(evaluation: StandardResult, options: { latencyMs?: number } = {}): AgentVerdict & { grade: Grade } {
  const metrics = evaluationMetrics(evaluation, options.latencyMs);
  const details = evaluationDetails(evaluation);
  const failure = failureOf(evaluation);
  if (failure !== undefined) return { status: 'failed', grade: 'FAIL', error: failure, metrics, details };
  const reasons = partialReasons(evaluation);
  if (reasons.length) return { status: 'passed', grade: 'PARTIAL', metrics, details: { ...details, partial_reasons: reasons } };
  return { status: 'passed', grade: 'PASS', metrics, details };
}

function failureOf(evaluation: StandardResult): string | undefined {
  if (evaluation.error) return describeError(evaluation.error);
  if (evaluation.structure_ok !== false) return undefined;
  const lines = Array.isArray(evaluation.failure_details) ? evaluation.failure_details.filter((l) => typeof l === 'string' && l) : [];
  return lines.length ? `structure check failed: ${lines.join('; ')}` : 'structure check failed';
}

function partialReasons(evaluation: StandardResult): string[] {
  const reasons: string[] = [];
  if (evaluation.intent_matched === false) reasons.push('intent not matched');
  const rate = evaluation.keyword_hit_rate;
  if (typeof rate === 'number' && rate < PARTIAL_BELOW) reasons.push(`keyword hit rate ${(rate * 100).toFixed(1)}% < 50%`);
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
  if (Array.isArray(evaluation.failure_details) && evaluation.failure_details.length) details.failure_details = evaluation.failure_details;
  return details;
}

function describeError(error: unknown): string {
  if (typeof error === 'string') return error;
  if (error instanceof Error) return error.message || error.name;
  try {
    return JSON.stringify(error);
  } catch {
    return String(error);
  }
}

function isNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}
