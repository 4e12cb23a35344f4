import type { DeepReadonly, KernelApi, ResultEvent, StartEvent, SummaryEvent } from '@agentest/kernel';
import { safeStringify } from '@agentest/common';
import {
  getConsoleHooks,
  interruptedText,
  gradeOf,
  printFlaky,
  representative,
  shardNote,
  terminalSafe as safe,
  type ConsoleLayout,
  type LayoutContext,
} from '@agentest/report';
import {
  formatCaseDetail,
  formatCaseLine,
  formatMetrics,
  formatShipVerdict,
  formatStatusCounts,
  formatSuiteFooter,
  formatSuiteHeader,
  type KitMetrics,
  type KitRow,
  type KitStatus,
} from './kit-format.js';

type Result = DeepReadonly<ResultEvent>;
type Summary = DeepReadonly<SummaryEvent>;

const GRADES: readonly string[] = ['PASS', 'PARTIAL', 'FAIL'];

/** Registers agentest-kit's layout with the console reporter, for kit suites. */
export function registerKitLayout(kernel: Pick<KernelApi, 'hooks'>, pluginName: string): void {
  getConsoleHooks(kernel)
    .layout.for('kit')
    .tap(pluginName, (context) => new KitLayout(context));
}

/**
 * agentest-kit's terminal layout for kit suites: the suite header, a badge line per case with the
 * diagnostics of PARTIAL and FAIL cases, the `Tests:` line, the Metrics block and the ship verdict.
 * It counts statuses as results arrive, so nothing is kept per case, and lists failures itself.
 */
export class KitLayout implements ConsoleLayout {
  readonly recapsFailures = false;
  private readonly counts: Partial<Record<KitStatus, number>> = {};
  /** The id column's width, from the suite (`meta.idWidth`), so every row lines up. */
  private idWidth?: number;

  constructor(private readonly context: LayoutContext) {}

  private get p() {
    return this.context.printer;
  }

  private get colour(): boolean {
    return this.p.colour;
  }

  failed(result: Result): boolean {
    return kitStatus(result) === 'FAIL';
  }

  header(start: DeepReadonly<StartEvent>): void {
    const width = start.meta?.idWidth;
    if (typeof width === 'number') this.idWidth = width;
    this.p.line(formatSuiteHeader(start.agent_id || start.suite, start.connector, this.colour));
    const shard = shardNote(start);
    if (shard) this.p.line(this.p.paint('dim', `shard ${safe(shard)}`));
  }

  result(result: Result): void {
    const status = kitStatus(result);
    this.counts[status] = (this.counts[status] ?? 0) + 1;
    const row = kitRow(result, status);
    this.p.line(
      formatCaseLine(row, { id: result.id, name: result.name ?? result.id }, status, this.colour, this.idWidth),
    );
    if (status === 'PARTIAL' || status === 'FAIL')
      this.p.lines(formatCaseDetail(row, { expected_keywords: expectedKeywords(result) }, this.colour));
  }

  summary(s: Summary): void {
    const { outputs } = this.context;
    this.p.line(formatSuiteFooter(this.colour));
    this.p.line(formatStatusCounts(this.counts, this.colour));
    if (s.metrics || s.thresholds)
      this.p.lines(formatMetrics(kitMetrics(s, this.active()), s.thresholds ?? {}, '', this.colour));
    printFlaky(this.p, s);
    if (s.verdict) this.p.lines(formatShipVerdict(s.verdict, this.colour));
    else this.p.line();
    if (s.interrupted) this.p.line(this.p.paint('yellow', interruptedText(s)));
    for (const output of outputs) this.p.line(this.p.paint('dim', `  Output: ${safe(output)}`));
  }

  private active(): number {
    return (this.counts.PASS ?? 0) + (this.counts.PARTIAL ?? 0) + (this.counts.FAIL ?? 0);
  }
}

/** SKIP and TODO from a skipped case; else the grade its first run reported; else PASS or FAIL from the status. */
export function kitStatus(result: Result): KitStatus {
  if (result.status === 'skipped') return result.todo ? 'TODO' : 'SKIP';
  const grade = gradeOf(result)?.toUpperCase();
  const graded = grade && GRADES.includes(grade) ? (grade as KitStatus) : undefined;
  // A grade never turns a failed, errored or timed-out case into a pass.
  if (result.status !== 'passed') return 'FAIL';
  return graded ?? 'PASS';
}

/**
 * The case as agentest-kit's result: the adapter's evaluation when the run kept one (an agent case's
 * output), its grading details otherwise. A failure the evaluation does not explain (a thrown
 * adapter, a timeout, a failed assertion in a test function) shows as `● error: …`.
 */
function kitRow(result: Result, status: KitStatus): KitRow {
  const run = representative(result);
  const elapsed = result.kind === 'agent' ? (result.metrics.latency_ms ?? result.duration_ms) : result.duration_ms;
  if (status === 'SKIP' || status === 'TODO') return { elapsed_ms: 0 };
  const evaluation = asRecord(run?.output ?? result.output);
  const graded =
    result.kind === 'agent' &&
    evaluation &&
    ('structure_ok' in evaluation || 'keyword_hit_rate' in evaluation || 'intent_matched' in evaluation);
  const source = graded ? evaluation : (asRecord(run?.details) ?? {});
  const explained = graded && (Boolean(evaluation.error) || evaluation.structure_ok === false);
  if (status === 'FAIL' && !explained)
    return { elapsed_ms: elapsed, error: result.error ?? run?.error ?? `case ended with status ${result.status}` };
  const rate = typeof source.keyword_hit_rate === 'number' ? source.keyword_hit_rate : result.metrics.keyword_hit_rate;
  return {
    elapsed_ms: elapsed,
    error:
      graded && evaluation.error
        ? String(typeof evaluation.error === 'string' ? evaluation.error : safeStringify(evaluation.error))
        : null,
    structure_ok: source.structure_ok !== false,
    failure_details: strings(source.failure_details),
    keyword_hits: strings(source.keyword_hits),
    keyword_hit_rate: typeof rate === 'number' ? rate : null,
  };
}

/** The case's expected keywords: from its evaluation when the adapter echoed them, else from its metadata. */
function expectedKeywords(result: Result): string[] {
  const evaluation = asRecord(representative(result)?.output ?? result.output);
  const fromEvaluation = strings(evaluation?.expected_keywords);
  return fromEvaluation.length ? fromEvaluation : strings(result.metadata?.expected_keywords);
}

/** The kernel's summary metrics under the kit's names (`quality_score` → `avg_quality_score`, …). */
function kitMetrics(s: Summary, active: number): KitMetrics {
  const m = s.metrics ?? {};
  return { ...m, total: active, avg_quality_score: m.quality_score ?? null, avg_latency_ms: m.latency_ms ?? null };
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}
