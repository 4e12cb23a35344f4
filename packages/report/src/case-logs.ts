import type { CaseResult, DeepReadonly, Execution } from '@agentest/kernel';

/**
 * What a case's code printed, read back as one list: its lifecycle hooks' lines (`hook_logs`) and its
 * runs' (a script test's `t.log`, an assistant hook's `console.*` kept on `trace.logs`).
 */

/** A run's lines: its own `logs`, then the `trace.logs` an agent recorded from its hooks. */
function executionLogs(run: DeepReadonly<Execution>): string[] {
  const traced = run.trace?.logs;
  const fromTrace = Array.isArray(traced) ? traced.filter((line): line is string => typeof line === 'string') : [];
  return fromTrace.length ? [...(run.logs ?? []), ...fromTrace] : [...(run.logs ?? [])];
}

/**
 * Every line a case printed, in the order it happened: its Before hook (`[Before] …`), each run
 * (`[run 2] …` when there are several), its After hook (`[After] …`). With `only`, that run's lines
 * alone (untagged), the Before output going with the first run and the After output with the last.
 */
export function caseLogs(result: DeepReadonly<CaseResult>, only?: DeepReadonly<Execution>): string[] {
  const first = !only || only === result.runs[0];
  const last = !only || only === result.runs.at(-1);
  const lines = first ? (result.hook_logs?.before ?? []).map((line) => `[Before] ${line}`) : [];
  for (const run of only ? [only] : result.runs) {
    const prefix = !only && result.runs.length > 1 ? `[run ${run.run}] ` : '';
    for (const line of executionLogs(run)) lines.push(prefix + line);
  }
  if (last) for (const line of result.hook_logs?.after ?? []) lines.push(`[After] ${line}`);
  return lines;
}
