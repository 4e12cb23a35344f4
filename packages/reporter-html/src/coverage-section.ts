import { readFileSync } from 'node:fs';
import ejs from 'ejs';
import type { CoverageCount, CoverageCounts, DeepReadonly, Summary } from '@agentest/kernel';

const KINDS = [
  { key: 'lines', label: 'Lines' },
  { key: 'functions', label: 'Functions' },
  { key: 'branches', label: 'Branches' },
  { key: 'statements', label: 'Statements' },
] as const;

let template: string | undefined;

/**
 * The Coverage section (with `--coverage`): the totals, then one row per source file with what ran of
 * it and the lines that did not. A row whose share of lines is below the run's `coverage_lines`
 * threshold is marked as a miss. Empty when the run measured no coverage.
 */
export function coverageSection(summary: DeepReadonly<Summary>): string {
  const coverage = summary.coverage;
  if (!coverage) return '';
  template ??= readFileSync(new URL('../assets/coverage.ejs', import.meta.url), 'utf8');
  const minimum = summary.thresholds?.coverage_lines;
  const row = (file: string, counts: DeepReadonly<CoverageCounts>, uncovered: string, total = false) => ({
    file,
    total,
    cells: KINDS.map(({ key }) => cell(counts[key])),
    uncovered,
    miss: minimum !== undefined && counts.lines.pct / 100 < minimum,
  });
  return ejs.render(template, {
    kinds: KINDS,
    files: coverage.files,
    reports: coverage.reports,
    rows: [
      row('All files', coverage, '', true),
      ...coverage.files.map((file) => row(file.file, file, file.uncovered_lines)),
    ],
  });
}

/** `58.8% (10/17)`. */
function cell({ pct, covered, total }: DeepReadonly<CoverageCount>): string {
  return `${pct.toFixed(1)}% (${covered}/${total})`;
}
