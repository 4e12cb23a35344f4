import type { DeepReadonly, Summary } from '@agentest/kernel';

type RobustnessSummary = DeepReadonly<Pick<Summary, 'robustness' | 'not_fuzzed'>>;

/** Whether a report has a robustness section: `--fuzz` fuzzed a case, or left one without variants. */
export function hasRobustness(summary: RobustnessSummary): boolean {
  return Boolean(summary.robustness?.length || summary.not_fuzzed?.length);
}

/**
 * The robustness section's summary line, the same in every report: `3 cases fuzzed (2 passed every
 * variant); 1 not fuzzed`. A case without variants is counted, so a fuzzed run never drops one silently.
 */
export function robustnessLine(summary: RobustnessSummary): string {
  const fuzzed = summary.robustness ?? [];
  const robust = fuzzed.filter((r) => r.variants > 0 && r.passed === r.variants).length;
  const notFuzzed = summary.not_fuzzed?.length ?? 0;
  const cases = `${fuzzed.length} ${fuzzed.length === 1 ? 'case' : 'cases'} fuzzed`;
  return `${cases}${fuzzed.length ? ` (${robust} passed every variant)` : ''}${notFuzzed ? `; ${notFuzzed} not fuzzed` : ''}`;
}
