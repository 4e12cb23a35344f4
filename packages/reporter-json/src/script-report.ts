import { representative, type Report, caseLogs } from '@agentest/report';
import { metadataBlock, type ReportMeta } from './report.js';

/**
 * The seed's script test report: `{"type": "script_test", script, script_path, summary, environment,
 * results: [{name, status, duration_ms, error?, assertion?, logs}], metadata}`. As in Yao's script
 * summary, `failed` counts the tests that threw or timed out too (passed + failed + skipped = total);
 * `errors` and `timeouts` say how many of them did.
 */
export function buildScriptReport(report: Report, meta: ReportMeta) {
  const { summary } = report;
  return {
    type: 'script_test',
    script: report.metadata.script ?? report.metadata.input_file,
    script_path: report.metadata.script_path ?? '',
    summary: {
      total: summary.total,
      passed: summary.passed,
      failed: summary.failed + summary.errors + summary.timeouts,
      skipped: summary.skipped,
      errors: summary.errors,
      timeouts: summary.timeouts,
      duration_ms: summary.duration_ms,
      ...interruption(summary),
      ...(summary.coverage ? { coverage: summary.coverage } : {}),
      ...(summary.not_fuzzed ? { not_fuzzed: summary.not_fuzzed } : {}),
    },
    environment: report.environment,
    results: report.results.map((result) => {
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
    metadata: metadataBlock(report, meta),
  };
}

/** An interrupted run says so, with the count of cases that never ran; a complete one adds nothing. */
function interruption(summary: Report['summary']) {
  return summary.interrupted ? { interrupted: true, not_run: summary.not_run ?? 0 } : {};
}
