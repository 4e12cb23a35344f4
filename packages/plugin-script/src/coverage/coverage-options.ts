import * as z from 'zod';
import { lazy } from '@agentest/common';

/** The istanbul reports `coverage.reporters` may name (the formats c8 and nyc write). */
export const COVERAGE_REPORTERS = [
  'lcovonly',
  'lcov',
  'text',
  'text-summary',
  'json',
  'json-summary',
  'html',
  'cobertura',
  'clover',
  'teamcity',
] as const;
export type CoverageReporter = (typeof COVERAGE_REPORTERS)[number];

export const DEFAULT_COVERAGE_REPORTERS: CoverageReporter[] = ['lcovonly', 'text'];
export const DEFAULT_COVERAGE_DIR = 'coverage';
/** The tests themselves are not what is measured; neither are dependencies or type declarations. */
export const DEFAULT_COVERAGE_EXCLUDE = [
  '**/*_test.{ts,js,mts,mjs,cts,cjs}',
  '**/*.{test,spec}.{ts,js,mts,mjs,cts,cjs}',
  '**/node_modules/**',
  '**/*.d.ts',
];

/** A percentage; a fraction such as 0.8 is a slip for 80 (thresholds are shares), which almost any run would meet. */
const percent = () =>
  z
    .number()
    .min(0)
    .max(100)
    .refine((value) => value === 0 || value >= 1, {
      error: (issue) => {
        const meant = Math.round(Number(issue.input) * 10_000) / 100;
        return `a percentage from 1 to 100, as in c8 and nyc, got ${String(issue.input)}: write ${meant} for ${meant}%`;
      },
    });
const globs = () => z.union([z.string().min(1), z.array(z.string().min(1))]);

/**
 * The config's `coverage` section; the minimums are percentages, as in c8 and nyc. Built on first use: a
 * run without a config validates none.
 */
export const coverageShape = lazy(() =>
  z.strictObject({
    enabled: z.boolean().optional(),
    /** Source files counted, as globs relative to the config's folder (default: every file under it). */
    include: globs().optional(),
    /** Source files left out (default: tests, `node_modules`, `.d.ts`). */
    exclude: globs().optional(),
    reporters: z.array(z.enum(COVERAGE_REPORTERS)).optional(),
    /** Where the report files go (default `coverage`), relative to the config's folder. */
    dir: z.string().min(1).optional(),
    lines: percent().optional(),
    functions: percent().optional(),
    branches: percent().optional(),
    statements: percent().optional(),
  }),
);
export type CoverageConfig = z.infer<ReturnType<typeof coverageShape>>;
/** The section's keys (the schema's, which a test compares). */
export const COVERAGE_KEYS = [
  'enabled',
  'include',
  'exclude',
  'reporters',
  'dir',
  'lines',
  'functions',
  'branches',
  'statements',
];

/** `coverage: { lines: 80 }` as thresholds of the run: `coverage_lines: 0.8`. */
export function coverageThresholds(config: CoverageConfig): Record<string, number> {
  const out: Record<string, number> = {};
  for (const name of ['lines', 'functions', 'branches', 'statements'] as const)
    if (config[name] !== undefined) out[`coverage_${name}`] = config[name] / 100;
  return out;
}
