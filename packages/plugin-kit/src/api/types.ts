import type { KitCaseFields } from '../types.js';

/** agentest-kit's internal case: what `fromJsonCases` and `fromRegistered` return and `runSuite` takes. */
export interface KitTestCase extends KitCaseFields {
  id: string;
  /** Marked with `test.only`: `runSuite` then skips every case not marked. */
  only?: boolean;
  /** The registering file (absolute), for messages that point at a test. */
  file?: string;
}

/** agentest-kit's StandardResult, plus the markers its runner sets. */
export interface TestResult {
  case_id: string;
  query: string;
  elapsed_ms: number;
  error: string | null;
  structure_ok: boolean;
  intent_matched: boolean;
  keyword_hits: string[];
  keyword_hit_rate: number | null;
  quality_score: number;
  failure_details: string[];
  skipped?: boolean;
  todo?: boolean;
  is_fn_based?: boolean;
  normalized_categories?: string[];
  raw?: unknown;
  /** What the case contributes to the run's metrics, by the kit rule (see docs/kit.md); set by `runSuite`. */
  metrics?: Record<string, number>;
  [field: string]: unknown;
}

export type TestStatus = 'PASS' | 'PARTIAL' | 'FAIL' | 'SKIP' | 'TODO';

export interface Metrics {
  /** Active cases: neither skipped nor todo. */
  total: number;
  keyword_hit_rate: number | null;
  intent_match_rate: number | null;
  avg_quality_score: number | null;
  avg_latency_ms: number | null;
  /** PASS and PARTIAL over active cases (0–1). */
  pass_rate: number | null;
  passed: number;
  partial: number;
  failed: number;
  /** Metrics of the run's own (`ctx.metric` names). */
  [metric: string]: number | null;
}

/** Metric name → limit: a minimum, or a maximum for names ending in `_ms`. */
export type Thresholds = Partial<
  Record<'keyword_hit_rate' | 'intent_match_rate' | 'avg_quality_score' | 'avg_latency_ms', number>
> &
  Record<string, number>;

export interface ShipabilityVerdict {
  can_ship: boolean;
  issues: string[];
}

export interface SuiteOptions {
  /** The title printed above the cases. */
  label?: string;
  /** Shown next to the title. */
  apiUrl?: string;
  /** Cases in flight at once (default 1, agentest-kit's serial order). */
  parallel?: number;
  /** Per-case timeout in milliseconds (default 5 minutes). */
  timeoutMs?: number;
  /** Print the header, one line per case and the footer (default true). */
  print?: boolean;
  /** Run a suite with `test.only` even when `CI` is set (default: refused on CI, as the CLI does). */
  allowOnly?: boolean;
}
