import { caseLogs, type DeepReadonly, type ResultEvent, type StartEvent, type SummaryEvent } from '@agentest/kernel';
import { metadataBlock, representative, type ReportMeta } from './report.js';

/**
 * The seed's script test report: `{"type": "script_test", script, script_path, summary, environment,
 * results: [{name, status, duration_ms, error?, assertion?, logs}], metadata}`.
 */
export function buildScriptReport(
  start: DeepReadonly<StartEvent>,
  results: readonly DeepReadonly<ResultEvent>[],
  summary: DeepReadonly<SummaryEvent>,
  meta: ReportMeta,
) {
  const info = start.meta ?? {};
  return {
    type: 'script_test',
    script: typeof info.script === 'string' ? info.script : start.suite,
    script_path: String(info.script_path ?? info.test_path ?? info.path ?? ''),
    summary: {
      total: summary.total,
      passed: summary.passed,
      failed: summary.failed,
      skipped: summary.skipped,
      errors: summary.errors,
      timeouts: summary.timeouts,
      duration_ms: summary.duration_ms,
      ...interruption(summary),
    },
    environment: start.environment,
    results: results.map((result) => {
      const run = representative(result);
      const assertion = run?.details?.assertion;
      return {
        name: result.name ?? result.id,
        status: result.status,
        duration_ms: result.duration_ms,
        ...(result.error ? { error: result.error } : {}),
        ...(assertion ? { assertion } : {}),
        ...(result.skip_reason ? { skip_reason: result.skip_reason } : {}),
        logs: caseLogs(result),
      };
    }),
    metadata: metadataBlock(summary, meta),
  };
}

/** An interrupted run says so, with the count of cases that never ran; a complete one adds nothing. */
function interruption(summary: DeepReadonly<SummaryEvent>) {
  return summary.interrupted ? { interrupted: true, not_run: summary.not_run ?? 0 } : {};
}
