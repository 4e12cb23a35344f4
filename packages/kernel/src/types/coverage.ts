/** Covered out of total, and the percentage (0–100, two decimals; 100 when there is nothing to cover). */
export interface CoverageCount {
  total: number;
  covered: number;
  pct: number;
}

/** The four counts istanbul reports, for the whole run or for one file. */
export interface CoverageCounts {
  lines: CoverageCount;
  functions: CoverageCount;
  branches: CoverageCount;
  statements: CoverageCount;
}

/** One source file of the app: its counts and the lines no code reached (`"6-11, 14"`). */
export interface FileCoverage extends CoverageCounts {
  /** Relative to the run's working directory. */
  file: string;
  uncovered_lines: string;
}

/**
 * With `--coverage`: how much of the app's scripts and hooks the run executed, mapped to their
 * `.ts`/`.js` sources (set by the coverage plugin before reporters hear the summary). The totals are
 * also the summary's `coverage_*` metrics, which thresholds can hold the run to.
 */
export interface CoverageSummary extends CoverageCounts {
  files: FileCoverage[];
  /** The coverage reports written (`coverage/lcov.info`), relative to the working directory. */
  reports: string[];
}
