import { resolve } from 'node:path';
import type { AgentestPlugin, RunPlan, Summary } from '@agentest/kernel';
import { checkThresholdValues, formatMetric } from '@agentest/report';
import { coverageThresholds } from '@agentest/plugin-script/coverage-options';
import type { CoverageOutcome } from '@agentest/plugin-script';
import type { NormalisedConfig } from '../config/normalise-config.js';
import type { CliIo } from '../run-test.js';

export interface CoverageSetup {
  plugins: AgentestPlugin[];
  /** After the run: the coverage onto the summary the exit code is read from, and the table printed. */
  finish(summary: Summary): void;
}

const OFF: CoverageSetup = { plugins: [], finish: () => undefined };

/**
 * Coverage for one `agentest test` run: on with `--coverage` or the config's `coverage.enabled`
 * (`--no-coverage` wins). The config's minimums (`coverage.lines: 80`, percentages) become the
 * run's `coverage_*` thresholds unless `thresholds` or `--threshold` name them too.
 */
export async function setupCoverage(
  flag: boolean | undefined,
  config: NormalisedConfig,
  plan: RunPlan,
  io: CliIo,
): Promise<CoverageSetup> {
  // Before coverage starts: a minimum no run can meet (`coverage_lines=101%`) is refused with nothing written.
  checkThresholdValues(plan);
  if (!(flag ?? config.coverage.enabled ?? false)) return OFF;
  const { include, exclude, reporters, dir } = config.coverage;
  plan.thresholds = { ...coverageThresholds(config.coverage), ...plan.thresholds };
  const { coveragePlugin, applyCoverage } = await import('@agentest/plugin-script');
  let outcome: CoverageOutcome | undefined;
  const plugin = coveragePlugin({
    cwd: config.dir,
    ...(include ? { include: [include].flat() } : {}),
    ...(exclude ? { exclude: [exclude].flat() } : {}),
    ...(reporters ? { reporters } : {}),
    ...(dir ? { dir: resolve(config.dir, dir) } : {}),
    onCoverage: (heard) => (outcome = heard),
  });
  return {
    plugins: [plugin],
    finish(summary) {
      if (!outcome) return;
      applyCoverage(summary, outcome);
      io.stdout.write(coverageText(outcome, summary.verdict));
    },
  };
}

/**
 * The line that says how much ran and where the reports are, istanbul's table, and each minimum the
 * run missed (script suites' output shows no verdict of its own, so the reason for exit 1 is here).
 */
function coverageText({ summary, text }: CoverageOutcome, verdict: Summary['verdict']): string {
  const written = summary.reports.length ? ` (${summary.reports.join(', ')})` : '';
  if (!summary.files.length) return `\nCoverage: no source file of the app ran${written}\n`;
  const lines = formatMetric('coverage_lines', summary.lines.covered / (summary.lines.total || 1));
  const missed = (verdict?.issues ?? []).filter((issue) => issue.startsWith('Coverage '));
  const below = missed.map((issue) => `✗ ${issue}: the run cannot ship\n`).join('');
  return `\nCoverage: ${lines} of lines${written}\n${text}${below}`;
}
