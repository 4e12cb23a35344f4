import { isAbsolute, join, relative } from 'node:path';
import type { CoverageCount, CoverageCounts, CoverageSummary, FileCoverage } from '@agentest/kernel';
import type { CoverageMap, CoverageSummary as IstanbulSummary } from 'istanbul-lib-coverage';
import libReport from 'istanbul-lib-report';
import reports from 'istanbul-reports';
import type { CoverageReporter } from './coverage-options.js';

/** What a run's coverage came to: the summary for reports, and what the text reporters printed. */
export interface CoverageOutcome {
  summary: CoverageSummary;
  text: string;
}

/**
 * Writes istanbul's file reports of `files` (default `map`) into `dir`, lcov's `SF:` paths relative to
 * `cwd`, and sums `map` up. The terminal reporters (`text`, `text-summary`, `teamcity`) report `map`
 * into `text` instead of the terminal, for the caller to print where its output goes.
 */
export function reportCoverage(
  map: CoverageMap,
  options: { dir: string; cwd: string; reporters: readonly CoverageReporter[]; files?: CoverageMap },
): CoverageOutcome {
  let text = '';
  const terminal = {
    write: (chunk: string) => void (text += chunk),
    println: (line: string) => void (text += `${line}\n`),
    colorize: (chunk: string) => chunk,
    close: () => undefined,
  };
  const own = textContext(map, options.dir, terminal);
  const all = options.files ? textContext(options.files, options.dir, terminal) : own;
  const written: string[] = [];
  for (const name of options.reporters) {
    const file = REPORT_FILES[name];
    reports.create(name, { projectRoot: options.cwd } as never).execute(file ? all : own);
    if (file) written.push(shown(join(options.dir, file), options.cwd));
  }
  return {
    summary: { ...counts(map.getCoverageSummary()), files: fileRows(map, options.cwd), reports: written },
    text,
  };
}

/** istanbul's context for `map`, whose terminal output goes to `terminal`. */
function textContext(map: CoverageMap, dir: string, terminal: object): libReport.Context {
  const context = libReport.createContext({ dir, coverageMap: map, defaultSummarizer: 'nested' });
  const files = context.writer;
  (context as { data: { writer: unknown } }).data.writer = new Proxy(files, {
    get: (target, name) =>
      name === 'writeFile'
        ? (file: string | null) => (file === null || file === '-' ? terminal : target.writeFile(file))
        : Reflect.get(target, name),
  });
  return context;
}

/** The file each reporter writes in the coverage folder (none for the text reporters). */
const REPORT_FILES: Partial<Record<CoverageReporter, string>> = {
  lcovonly: 'lcov.info',
  lcov: 'lcov.info',
  json: 'coverage-final.json',
  'json-summary': 'coverage-summary.json',
  html: 'index.html',
  cobertura: 'cobertura-coverage.xml',
  clover: 'clover.xml',
};

/** The summary's `coverage_*` metrics (0–1, four decimals as the kernel's), once some source file was counted. */
export function coverageMetrics(summary: CoverageSummary): Record<string, number> {
  if (!summary.files.length) return {};
  const share = ({ total, covered }: CoverageCount) => (total ? Math.round((covered / total) * 10_000) / 10_000 : 1);
  return {
    coverage_lines: share(summary.lines),
    coverage_functions: share(summary.functions),
    coverage_branches: share(summary.branches),
    coverage_statements: share(summary.statements),
  };
}

function fileRows(map: CoverageMap, cwd: string): FileCoverage[] {
  return map
    .files()
    .sort()
    .map((path) => {
      const coverage = map.fileCoverageFor(path);
      return {
        file: shown(path, cwd),
        ...counts(coverage.toSummary()),
        uncovered_lines: lineRanges(coverage.getUncoveredLines().map(Number)),
      };
    });
}

/** A path relative to `cwd` when it lies under it, else absolute. */
function shown(path: string, cwd: string): string {
  const near = relative(cwd, path);
  return near.startsWith('..') || isAbsolute(near) ? path : near;
}

function counts(summary: IstanbulSummary): CoverageCounts {
  const count = (name: keyof CoverageCounts): CoverageCount => {
    const { total, covered, pct } = summary[name];
    return { total, covered, pct: typeof pct === 'number' ? pct : 100 };
  };
  return {
    lines: count('lines'),
    functions: count('functions'),
    branches: count('branches'),
    statements: count('statements'),
  };
}

/** `[6, 7, 8, 11]` → `"6-8, 11"`. */
export function lineRanges(lines: readonly number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const start = lines[i]!;
    while (i + 1 < lines.length && lines[i + 1] === lines[i]! + 1) i++;
    parts.push(start === lines[i] ? String(start) : `${start}-${lines[i]}`);
  }
  return parts.join(', ');
}
