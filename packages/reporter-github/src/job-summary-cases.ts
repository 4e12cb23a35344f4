import type { DeepReadonly, ResultEvent, StartEvent, Status, SummaryEvent } from '@agentest/kernel';
import { ReportCollector, isFailure, reportResult, type ReadonlyResult, type Report } from '@agentest/report';

/** The most failing cases the job summary lists whole (its longest form; shorter ones list fewer). */
export const MOST_FAILURES_LISTED = 100;

/**
 * What the job summary needs of each case, and no more: a run in Actions can be a suite of 100k
 * cases, and a reporter holding every result until the summary grows with the suite. Kept whole: the
 * first failing cases, as many as the summary lists. Kept small: the label and the blocks the summary
 * tabulates for every case that has them (stability, a sequential run's decision, a flaky case's
 * recent outcomes). Every other case is a shared stand-in of its status, so the summary still counts
 * the cases and the failures it does not list.
 */
export class JobSummaryCases {
  private readonly collector = new ReportCollector();
  private results: ReadonlyResult[] = [];
  private listed = 0;

  onStart(event: DeepReadonly<StartEvent>): void {
    this.collector.onStart(event);
    this.results = [];
    this.listed = 0;
  }

  onResult(event: DeepReadonly<ResultEvent>): void {
    if (isFailure(event.status) && this.listed < MOST_FAILURES_LISTED) {
      this.listed++;
      this.results.push(reportResult(event));
    } else this.results.push(tabulated(event) ?? STAND_IN[event.status]);
  }

  /** The report the job summary renders, as of the summary event. */
  build(event: DeepReadonly<SummaryEvent>): Report {
    return { ...this.collector.build(event), results: this.results };
  }
}

/** A case's result with nothing in it but what it is counted by. */
function standIn(status: Status, fields: Partial<ReadonlyResult> = {}): ReadonlyResult {
  return { id: '', kind: '', input: undefined, source: NOWHERE, status, ...EMPTY, ...fields };
}

const NOWHERE = Object.freeze({ file: '' });
const EMPTY = Object.freeze({ duration_ms: 0, assertions: [], metrics: {}, runs: [] });
const STAND_IN: Record<Status, ReadonlyResult> = {
  passed: standIn('passed'),
  failed: standIn('failed'),
  error: standIn('error'),
  timeout: standIn('timeout'),
  skipped: standIn('skipped'),
};

/** The case's row of the tables every case appears in (stability, sequential runs, flaky cases), if it has one. */
function tabulated(event: DeepReadonly<ResultEvent>): ReadonlyResult | undefined {
  const { id, name, status, stability, run_policy, history } = event;
  if (!stability && !run_policy && !history?.flaky) return undefined;
  return standIn(status, {
    id,
    ...(name !== undefined ? { name } : {}),
    ...(stability ? { stability } : {}),
    ...(run_policy ? { run_policy } : {}),
    ...(history?.flaky ? { history } : {}),
  });
}
