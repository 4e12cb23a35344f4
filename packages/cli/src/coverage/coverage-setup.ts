import { resolve } from 'node:path';
import { AgentestError, type AgentestPlugin, type RunPlan, type Summary } from '@agentest/kernel';
import { formatMetric } from '@agentest/report';
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
  checkCoverageThresholds(plan);
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

/** A coverage minimum is a share: `coverage_lines=80` (8000%) is a slip for `80%` or `0.8`. */
function checkCoverageThresholds(plan: Pick<RunPlan, 'thresholds' | 'thresholdFlags'>): void {
  for (const [name, value] of Object.entries(plan.thresholds ?? {})) {
    if (!name.startsWith('coverage_') || value <= 1) continue;
    const fromFlag = plan.thresholdFlags?.includes(name) === true;
    const where = fromFlag ? '--threshold' : `thresholds.${name}`;
    throw new AgentestError(
      fromFlag ? 'FLAG_INVALID' : 'CONFIG_INVALID',
      // Just over 1 is a minimum over 100 % (`=101%`), which no run meets; more is a percentage written as a share.
      value < 2
        ? `${where}: ${name} is a share from 0 to 1 (at most 100%), got ${value}: no run can cover more than all of its lines`
        : `${where}: ${name} is a share from 0 to 1, got ${value}: write ${name}=${value}% or ${name}=${value / 100} (the config's coverage.${name.slice(9)} takes a percentage)`,
      { where },
    );
  }
}
