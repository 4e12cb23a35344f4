import { safeStringify } from '@agentest/common';
import { describeInput, displayValue, isFailure, truncate, type ReadonlyResult, type Report } from '@agentest/report';

/** What the reporter agent receives as `report`: the whole report, or a trimmed one that says so. */
export type ReportPayload = Record<string, unknown>;

export const TRIM_STRATEGY =
  'summary, environment and metadata in full; then the failing cases (error, failed assertions, input, expected and output cut to a ' +
  'few characters each); then the stability of unstable cases; then the ids of passed and skipped cases; whatever did not fit is counted here';

/** The text limits tried in turn until every failing case fits. */
const TEXT_LIMITS = [2000, 500, 120];

/**
 * Fits the report into `maxChars` of JSON. A report that fits is sent whole. Otherwise it is rebuilt
 * by priority (TRIM_STRATEGY), and `metadata.trimmed` states the strategy and every count left out,
 * so the reporter agent can say its report rests on a partial view.
 */
export function trimReport(report: Report, maxChars: number): ReportPayload {
  const whole = {
    summary: report.summary,
    environment: report.environment,
    results: report.results,
    metadata: report.metadata,
  };
  if (safeStringify(whole)!.length <= maxChars) return whole;

  const failures = report.results.filter((r) => isFailure(r.status));
  const unstable = report.results.filter((r) => r.stability && !r.stability.stable);
  const passed = report.results.filter((r) => r.status === 'passed').map((r) => r.id);
  const skipped = report.results.filter((r) => r.status === 'skipped').map((r) => r.id);
  let best: ReportPayload | undefined;
  for (const limit of TEXT_LIMITS) {
    // Room for the `trimmed` block itself, which is written once the counts are known.
    let budget = maxChars - safeStringify({ ...whole, results: [] })!.length - 700;
    const take = <T>(items: readonly T[]): T[] => {
      const kept: T[] = [];
      for (const item of items) {
        const size = (safeStringify(item)?.length ?? 0) + 1;
        if (size > budget) break;
        budget -= size;
        kept.push(item);
      }
      return kept;
    };
    const results = take(failures.map((r) => compactFailure(r, limit)));
    const stability = take(unstable.map((r) => ({ id: r.id, ...r.stability })));
    const passedIds = take(passed);
    const skippedIds = take(skipped);
    best = {
      summary: report.summary,
      environment: report.environment,
      results,
      stability_results: stability,
      passed_ids: passedIds,
      skipped_ids: skippedIds,
      metadata: {
        ...report.metadata,
        trimmed: {
          strategy: TRIM_STRATEGY,
          max_chars: maxChars,
          text_limit_chars: limit,
          failures: { total: failures.length, included: results.length },
          unstable_stability: { total: unstable.length, included: stability.length },
          passed_ids: { total: passed.length, included: passedIds.length },
          skipped_ids: { total: skipped.length, included: skippedIds.length },
        },
      },
    };
    if (results.length === failures.length) break;
  }
  return best!;
}

/** A failing case with only what explains the failure, every text cut to `limit` characters. */
function compactFailure(result: ReadonlyResult, limit: number): Record<string, unknown> {
  const cut = (value: unknown) => truncate(displayValue(value), limit);
  return {
    id: result.id,
    ...(result.name ? { name: result.name } : {}),
    status: result.status,
    ...(result.error ? { error: cut(result.error) } : {}),
    source: result.source,
    input: truncate(describeInput(result.input), limit),
    ...(result.expected !== undefined ? { expected: cut(result.expected) } : {}),
    ...(result.output !== undefined ? { output: cut(result.output) } : {}),
    failed_assertions: result.assertions
      .filter((a) => !a.pass)
      .map((a) => ({
        type: a.type,
        ...(a.message ? { message: cut(a.message) } : {}),
        ...(a.expected !== undefined ? { expected: cut(a.expected) } : {}),
        ...(a.actual !== undefined ? { actual: cut(a.actual) } : {}),
      })),
    ...(result.runs.length > 1
      ? {
          runs: result.runs.map((r) => ({
            run: r.run,
            status: r.status,
            ...(r.error ? { error: truncate(r.error, Math.min(limit, 200)) } : {}),
          })),
        }
      : {}),
  };
}
