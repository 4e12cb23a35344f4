import { isAgentestError, type AgentestPlugin, type BaselineComparison, type RunEvent } from '@agentest/kernel';
import { compareReports, type CompareOptions } from './compare-reports.js';
import type { ComparisonInput } from './comparison-input.js';
import type { Comparison } from './comparison.js';
import { caseRecord, type Loose } from './read-case.js';
import { inputFromStart } from './read-jsonl.js';

export interface BaselineOptions extends CompareOptions {
  /** The baseline report, read beforehand with `readReport` (so a bad file stops the run before it starts). */
  baseline: ComparisonInput;
  /** Hears the full comparison when the run ends (the CLI prints it). */
  onComparison?: (comparison: Comparison) => void;
}

/** Runs before every reporter, so that each of them hears the summary with its `comparison`. */
const BEFORE_REPORTERS = -100;

export const PLUGIN_NAME = 'agentest:baseline';

/**
 * `agentest test --baseline <report>`: collects this run's cases as they finish and, when the
 * summary comes, compares them with the baseline and sets `summary.comparison`, before any reporter
 * hears the summary, so every report carries it. A baseline that cannot be compared with this run
 * (no case in common, say after `--run`) is recorded there as `not_comparable`; the run's own
 * verdicts and exit code never change.
 */
export function baselinePlugin(options: BaselineOptions): AgentestPlugin {
  let current: ComparisonInput | undefined;
  return {
    name: PLUGIN_NAME,
    apply(kernel) {
      kernel.hooks.report.tap({ name: PLUGIN_NAME, stage: BEFORE_REPORTERS }, (event: RunEvent) => {
        if (event.type === 'start') current = inputFromStart(event as unknown as Loose, 'this run');
        else if (event.type === 'result' && current)
          current.cases.set(
            event.id,
            caseRecord(event.id, event as unknown as Loose, (event.runs ?? []) as unknown as Loose[]),
          );
        else if (event.type === 'summary' && current) {
          current.complete = event.interrupted !== true && event.halted === undefined;
          event.comparison = summarise(options, current);
        }
      });
    },
  };
}

function summarise(options: BaselineOptions, head: ComparisonInput): BaselineComparison {
  const baseline = options.baseline.file;
  let comparison: Comparison;
  try {
    comparison = compareReports(options.baseline, head, options);
  } catch (error) {
    if (!isAgentestError(error)) throw error;
    return { baseline, verdict: 'not_comparable', reason: error.message };
  }
  options.onComparison?.(comparison);
  const ids = (category: string) => comparison.cases.filter((c) => c.category === category).map((c) => c.id);
  const flagged = comparison.cases
    .filter((c) => c.test?.flag)
    .map((c) => ({ id: c.id, flag: c.test!.flag!, adjusted_p: c.test!.adjusted }));
  const { estimate, lower, upper } = comparison.verdict.difference;
  return {
    baseline,
    verdict: comparison.verdict.verdict,
    reason: comparison.verdict.reason,
    counts: comparison.counts,
    regressed: ids('regressed'),
    fixed: ids('fixed'),
    ...(flagged.length ? { flagged } : {}),
    pass_rate_difference: { estimate, lower, upper },
  };
}
