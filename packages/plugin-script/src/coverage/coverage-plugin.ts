import { resolve } from 'node:path';
import libCoverage, { type CoverageMap, type CoverageMapData } from 'istanbul-lib-coverage';
import type { AgentestPlugin, Summary } from '@agentest/kernel';
import { DEFAULT_COVERAGE_DIR, DEFAULT_COVERAGE_REPORTERS, type CoverageReporter } from './coverage-options.js';
import { coverageMetrics, reportCoverage, type CoverageOutcome } from './coverage-report.js';
import { startCoverage, stopCoverage, type CoverageSession } from './coverage-session.js';
import { sourceFilter } from './source-filter.js';

export const COVERAGE_PLUGIN_NAME = 'agentest:coverage';
/** Before the verdict plugin's `summary` tap, so that thresholds on `coverage_*` metrics are judged. */
const BEFORE_VERDICT = -100;

export interface CoveragePluginOptions {
  /** Where `include`, `exclude` and `dir` start, and what reported file names are relative to. */
  cwd: string;
  include?: readonly string[];
  exclude?: readonly string[];
  /** istanbul reports to write (default: `lcovonly` and `text`). */
  reporters?: readonly CoverageReporter[];
  /** The folder the report files go to (default `coverage`). */
  dir?: string;
  /** Hears the coverage when the run's summary is ready (the CLI prints its text after the run). */
  onCoverage?: (outcome: CoverageOutcome) => void;
}

/**
 * `--coverage`: V8 counts the app's scripts and hooks in the sandbox's threads for the length of a
 * run. When the summary comes, the counts are mapped to the source files, the reports are written,
 * and the summary gets `coverage` and the `coverage_*` metrics (a `summary` tap), before the verdict
 * is judged and before any reporter hears it.
 */
export function coveragePlugin(options: CoveragePluginOptions): AgentestPlugin {
  const keep = sourceFilter(options.cwd, options.include, options.exclude);
  const dir = resolve(options.cwd, options.dir ?? DEFAULT_COVERAGE_DIR);
  const reporters = options.reporters ?? DEFAULT_COVERAGE_REPORTERS;
  let session: CoverageSession | undefined;
  return {
    name: COVERAGE_PLUGIN_NAME,
    apply({ hooks }) {
      hooks.setup.tap(COVERAGE_PLUGIN_NAME, () => void (session = startCoverage()));
      hooks.summary.tapPromise({ name: COVERAGE_PLUGIN_NAME, stage: BEFORE_VERDICT }, async (summary: Summary) => {
        if (!session) return undefined;
        const map = await session.collect(keep);
        const outcome = reportCoverage(map, { dir, cwd: options.cwd, reporters, files: addUp(dir, map) });
        applyCoverage(summary, outcome);
        options.onCoverage?.(outcome);
        return summary;
      });
      hooks.teardown.tap(COVERAGE_PLUGIN_NAME, () => {
        if (session) stopCoverage(session);
        session = undefined;
      });
    },
  };
}

/**
 * Runs of one process that write into the same folder add up there (`agentest test` runs the suites the
 * config lists one after another): each run's summary is its own, the report files are of them all.
 */
const writtenTo = new Map<string, CoverageMap>();

function addUp(dir: string, map: CoverageMap): CoverageMap {
  const all = writtenTo.get(dir) ?? libCoverage.createCoverageMap({});
  // A copy: istanbul's merge keeps the file data it is given, and the next run's merge would change it.
  all.merge(JSON.parse(JSON.stringify(map)) as CoverageMapData);
  writtenTo.set(dir, all);
  return all;
}

/** Puts the coverage on a summary: the block and the `coverage_*` metrics. */
export function applyCoverage(summary: Summary, { summary: coverage }: CoverageOutcome): void {
  summary.coverage = coverage;
  const metrics = coverageMetrics(coverage);
  if (!Object.keys(metrics).length) return;
  summary.metrics = { ...summary.metrics, ...metrics };
}
