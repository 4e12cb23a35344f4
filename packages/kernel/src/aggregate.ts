import { computeStability } from './stability.js';
import { caseVariance } from './variance.js';
import type { CaseResult, Execution, Status } from './types/result.js';

/** The fields of a result that come from the case itself, before any run. */
export type CaseBase = Omit<CaseResult, 'status' | 'duration_ms' | 'assertions' | 'metrics' | 'runs'>;

const SEVERITY: Status[] = ['error', 'timeout', 'failed'];

/**
 * Folds a case's runs into its result: the most severe status wins (error, timeout, failed), runs
 * that all skipped make a skipped case, metrics are averaged, and with --runs > 1 the stability block
 * is added.
 */
export function aggregate(base: CaseBase, runs: Execution[], runsPerCase: number): CaseResult {
  if (runs.length === 1 && runsPerCase === 1) return single(base, runs);
  const worst = SEVERITY.find((s) => runs.some((r) => r.status === s));
  const allSkipped = runs.length > 0 && runs.every((r) => r.status === 'skipped');
  const status: Status = runs.length === 0 ? 'error' : (worst ?? (allSkipped ? 'skipped' : 'passed'));
  const first = representativeRun(runs, status);
  const metrics: Record<string, number> = {};
  const names = new Set(runs.flatMap((r) => Object.keys(r.metrics)));
  for (const name of names) {
    const values = runs.map((r) => r.metrics[name]).filter((v): v is number => typeof v === 'number');
    metrics[name] = values.reduce((a, b) => a + b, 0) / values.length;
  }
  return {
    ...base,
    status,
    output: first?.output,
    ...(first?.error
      ? { error: first.error }
      : runs.length === 0
        ? { error: 'run interrupted before it started' }
        : {}),
    duration_ms: Math.round(runs.reduce((a, r) => a + r.duration_ms, 0) * 100) / 100,
    assertions: first?.assertions ?? [],
    metrics,
    runs,
    ...(runsPerCase > 1 && runs.length ? { stability: computeStability(runs) } : {}),
    ...withVariance(runs),
  };
}

/**
 * The run that represents a case of the given status: its first run with that status, else its
 * first run. The case's output, error and assertions are that run's, so reports read it through
 * the same rule (`representative` of @agentest/report).
 */
export function representativeRun<R extends { status: Status }>(runs: readonly R[], status: Status): R | undefined {
  return runs.find((r) => r.status === status) ?? runs[0];
}

function withVariance(runs: readonly Execution[]): Pick<CaseResult, 'variance'> {
  const variance = caseVariance(runs);
  return variance ? { variance } : {};
}

/** The common case of one run per case: the same result as `aggregate`, without its bookkeeping. */
function single(base: CaseBase, runs: Execution[]): CaseResult {
  const run = runs[0]!;
  const result = base as CaseResult;
  result.status = run.status;
  result.output = run.output;
  if (run.error) result.error = run.error;
  result.duration_ms = Math.round(run.duration_ms * 100) / 100;
  result.assertions = run.assertions;
  const metrics: Record<string, number> = {};
  for (const name in run.metrics) {
    const value = run.metrics[name];
    // As `aggregate` averages: a non-number is left out, and a name with no number is NaN.
    metrics[name] = typeof value === 'number' ? value : NaN;
  }
  result.metrics = metrics;
  result.runs = runs;
  if (run.judge) Object.assign(result, withVariance(runs));
  return result;
}
