import type { DeepReadonly, RunPlan } from '@agentest/kernel';
import { representative, type ReadonlyResult, type Report, caseLogs } from '@agentest/report';

type Result = ReadonlyResult;

/** What the report's `metadata` block is built from. */
export interface ReportMeta {
  version: string;
  outputFile: string;
  plan?: DeepReadonly<RunPlan>;
}

/**
 * The run as one JSON document with Yao's field names (`summary`, `environment`, `results`, …). With
 * several runs per case it is also the seed's stability report: `summary.total_cases`, and each
 * `results[]` entry carries its case's stability figures, so the seed's CI check
 * `jq -e '.results | all(.pass_rate >= 80)'` reads them where it looks; Yao's `stability_results` stays.
 */
export function buildReport(report: Report, meta: ReportMeta) {
  const stability = report.results.filter((r) => r.stability);
  return {
    summary: stability.length ? { ...report.summary, total_cases: report.summary.total } : report.summary,
    environment: report.environment,
    results: report.results.map((result) => ({ ...resultEntry(result), ...stabilityFigures(result) })),
    ...(stability.length ? { stability_results: stability.map(stabilityEntry) } : {}),
    metadata: metadataBlock(report, meta),
  };
}

export function metadataBlock({ metadata }: Report, meta: ReportMeta) {
  return {
    started_at: metadata.started_at,
    completed_at: metadata.completed_at,
    version: meta.version,
    input_file: meta.plan?.input.input ?? '',
    output_file: meta.outputFile,
    ...(meta.plan ? { options: planOptions(meta.plan) } : {}),
  };
}

/** One `results[]` entry: the seed's fields first (`null` when absent, as the seed shows), then extras. */
function resultEntry(result: Result) {
  const run = representative(result);
  return {
    id: result.id,
    ...(result.name ? { name: result.name } : {}),
    status: result.status,
    input: result.input,
    output: result.output ?? null,
    expected: result.expected ?? null,
    duration_ms: result.duration_ms,
    error: result.error ?? null,
    assertions: result.assertions.map(({ type, negate, pass, ...rest }) => ({
      type,
      ...(negate ? { negate } : {}),
      pass,
      ...rest,
    })),
    ...(Object.keys(result.metrics).length ? { metrics: result.metrics } : {}),
    ...(run?.tool_calls?.length ? { tool_calls: run.tool_calls } : {}),
    ...(run?.usage ? { usage: run.usage } : {}),
    ...(run?.judge ? { judge_usage: run.judge } : {}),
    ...(result.variance ? { variance: result.variance } : {}),
    ...(run?.trace ? { trace: run.trace } : {}),
    ...(run?.details ? { details: run.details } : {}),
    ...(result.metadata ? { metadata: result.metadata } : {}),
    ...(result.tags ? { tags: result.tags } : {}),
    ...logsOf(result),
    ...(result.warnings?.length ? { warnings: result.warnings } : {}),
    ...(result.skip_reason ? { skip_reason: result.skip_reason } : {}),
    ...(result.todo ? { todo: true } : {}),
    source: result.source,
  };
}

/** The seed's per-case stability block, plus pass^k and the Wilson interval. */
function stabilityEntry(result: Result) {
  return {
    id: result.id,
    input: result.input,
    ...(result.expected !== undefined ? { expected: result.expected } : {}),
    ...stabilityFigures(result),
  };
}

/** A case's stability figures and its runs, as the seed's report lists them; nothing for a single run. */
function stabilityFigures(result: Result) {
  const s = result.stability;
  if (!s) return {};
  return {
    runs: s.runs,
    passed: s.passed,
    failed: s.failed,
    pass_rate: s.pass_rate,
    consistency: s.consistency,
    stable: s.stable,
    stability_class: s.stability_class,
    avg_duration_ms: s.avg_duration_ms,
    min_duration_ms: s.min_duration_ms,
    max_duration_ms: s.max_duration_ms,
    std_deviation_ms: s.std_deviation_ms,
    pass_hat_k: s.pass_hat_k,
    pass_rate_ci: s.pass_rate_ci,
    run_details: result.runs.map((r) => ({
      run: r.run,
      status: r.status,
      duration_ms: r.duration_ms,
      output: r.output ?? null,
      ...(r.error ? { error: r.error } : {}),
    })),
  };
}

/** The plan as the report records it (Yao's `metadata.options`, with readable names). */
function planOptions(plan: DeepReadonly<RunPlan>) {
  return {
    input: plan.input.input,
    ...(plan.agent?.id ? { agent: plan.agent.id } : {}),
    ...(plan.agent?.connector ? { connector: plan.agent.connector } : {}),
    ...(plan.env.user ? { user: plan.env.user } : {}),
    ...(plan.env.team ? { team: plan.env.team } : {}),
    ...(plan.env.ctxFile ? { ctx: plan.env.ctxFile } : {}),
    runs: plan.runs,
    parallel: plan.parallel,
    ...(plan.timeoutMs ? { timeout_ms: plan.timeoutMs } : {}),
    ...(plan.filter ? { run: plan.filter.source } : {}),
    fail_fast: plan.failFast,
    verbose: plan.verbose,
    ...(plan.thresholds ? { thresholds: plan.thresholds } : {}),
  };
}

/** What the case's hooks and runs printed, when they printed anything. */
function logsOf(result: Result): { logs?: string[] } {
  const logs = caseLogs(result);
  return logs.length ? { logs } : {};
}
