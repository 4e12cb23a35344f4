import type { Status } from '@agentest/kernel';
import type {
  BootstrapResult,
  FisherResult,
  Interval,
  McNemarResult,
  MedianChange,
  SampleSize,
} from './stats/index.js';

/** What happened to one case between base and head. */
export type Category = 'regressed' | 'fixed' | 'still_failing' | 'still_passing' | 'new' | 'removed' | 'skipped';

export const CATEGORIES: readonly Category[] = [
  'regressed',
  'fixed',
  'still_failing',
  'new',
  'removed',
  'skipped',
  'still_passing',
];

/** One side of a case: its runs and, when it failed, why. */
export interface SideEvidence {
  status: Status;
  /** Runs that were not skipped. */
  runs: number;
  passed: number;
  /** passed / runs (0–1). */
  passRate: number;
  /** 95% Wilson interval of the pass rate, when there were several runs. */
  interval?: Interval;
  messages: string[];
}

/** Fisher's exact test on a case's runs, with the Holm-adjusted p-value across all tested cases. */
export interface CaseTest extends FisherResult {
  /** Holm-adjusted two-sided p. */
  adjusted: number;
  /** Set when the adjusted p is below α: which way the case moved. */
  flag?: 'worse' | 'better';
}

export interface CaseChange {
  id: string;
  name?: string;
  category: Category;
  base?: SideEvidence;
  head?: SideEvidence;
  /** Only with at least two runs a side: one run of one case is never a significant change. */
  test?: CaseTest;
}

export type VerdictKind = 'regressed' | 'improved' | 'no_significant_change';

export interface SuiteVerdict {
  verdict: VerdictKind;
  /** `mcnemar` with one run per side, `bootstrap` with several. */
  method: 'mcnemar' | 'bootstrap';
  /** The sentence that explains the verdict. */
  reason: string;
  alpha: number;
  margin: number;
  /** Cases that ran on both sides. */
  paired: number;
  mcnemar?: McNemarResult;
  /** The pass-rate difference (head − base, 0–1) with its paired-bootstrap interval; always computed. */
  difference: BootstrapResult;
}

export type MetricName = 'latency_ms' | 'tokens' | 'cost';

export interface MetricChange extends MedianChange {
  metric: MetricName;
  /** Cases with the metric on both sides. */
  cases: number;
  /** `up` or `down` when the interval excludes 0; `none` otherwise. */
  change: 'up' | 'down' | 'none';
}

/** What `--detect δ` reports: whether the data rules out a drop of δ, and what would. */
export interface Detection {
  delta: number;
  /** True when the verdict is significant, or when a drop of δ is ruled out with enough cases. */
  decided: boolean;
  casesCompared: number;
  /** Cases needed at the current runs per case. */
  needed: SampleSize;
  /** Runs per case needed with the cases at hand (several runs only); `null` when no number of runs is enough. */
  runs?: number | null;
  /** The Var(d) the sample size was computed with. */
  variance: number;
}

/** A report as the comparison describes it. */
export interface SideInfo {
  file: string;
  format: 'jsonl' | 'json' | 'history';
  suite: string;
  kind: string;
  agent?: string;
  connector?: string;
  runsPerCase: number;
  startedAt?: string;
  complete: boolean;
  cases: number;
}

export interface Comparison {
  type: 'comparison';
  version: 1;
  base: SideInfo;
  head: SideInfo;
  counts: Record<Category, number>;
  /** Every case, most important first: regressed, fixed, still failing, new, removed, skipped, still passing. */
  cases: CaseChange[];
  /** How the per-case tests were corrected for their number. */
  correction: 'holm';
  verdict: SuiteVerdict;
  metrics: MetricChange[];
  detection?: Detection;
  /** Things a reader should know (an interrupted run, a renamed suite). */
  notes: string[];
  /** 1 on a significant regression, else 0. */
  exitCode: 0 | 1;
}
