import { safeStringify } from '@agentest/common';
import { conversationData, type ConversationData } from './conversation-data.js';
import { lineDiff, type DiffLine } from './value-diff.js';
import {
  caseLabel,
  describeInput,
  displayValue,
  formatDuration,
  gradeOf,
  truncate,
  type ReadonlyResult,
  type Report,
  usageText,
  caseLogs,
  judgeLine,
  varianceLine,
} from '@agentest/report';

/** Strings longer than this are cut in the page (the JSON report keeps them whole). */
const FIELD_LIMIT = 20_000;

/** One results-table row as the page's script receives it: display strings only, ready for `textContent`. */
export interface RowData {
  id: string;
  label: string;
  status: string;
  grade?: string;
  /** Per run: the average when the case ran several times. */
  duration_ms: number;
  duration: string;
  source: string;
  /** The case's tags (`--tag` selects by them). */
  tags?: string[];
  error?: string;
  input: string;
  expected?: string;
  output?: string;
  assertions: {
    type: string;
    pass: boolean;
    message?: string;
    expected?: string;
    actual?: string;
    diff?: DiffLine[];
    /** How an agent-judged assertion was judged (agreement, model, temperature, seed, prompt hash). */
    judge?: string;
  }[];
  logs: string[];
  /** With several runs; each run's output too when the runs disagree (a flaky case). */
  runs: { run: number; status: string; duration: string; error?: string; output?: string }[];
  stability?: string;
  /** A dynamic case: its conversation, drawn as chat bubbles. */
  conversation?: ConversationData;
  /** From the run history: the latest outcomes, oldest first (this run's last), for the strip beside the status. */
  recent?: string[];
  /** From the run history: how flaky the case is, when its outcome flips. */
  flaky?: string;
  /** With `--runs auto`: how many runs the case needed and why it stopped. */
  sequential?: string;
  /** For a judged case: the agent's pass rate across runs, apart from the judges' agreement. */
  variance?: string;
  /** Tokens and cost of the case's model calls. */
  usage?: string;
  /** What did not change the verdict but should be seen (no assertion, a failed After hook), one a line. */
  warnings?: string;
}

export function rowData(result: ReadonlyResult): RowData {
  const cut = (value: unknown) => (value === undefined ? undefined : truncate(displayValue(value), FIELD_LIMIT));
  const grade = gradeOf(result);
  const s = result.stability;
  // With several runs a case's duration is their sum; the table compares cases by their run time.
  const perRun = result.runs.length > 1 ? result.duration_ms / result.runs.length : result.duration_ms;
  const flaky = new Set(result.runs.map((r) => r.status)).size > 1;
  const row: RowData = {
    id: result.id,
    label: caseLabel(result),
    status: result.status,
    duration_ms: perRun,
    // A skipped case did not run: it has no duration to show.
    duration:
      result.status === 'skipped'
        ? '—'
        : result.runs.length > 1
          ? `${formatDuration(perRun)} avg`
          : formatDuration(perRun),
    source: result.source.line ? `${result.source.file}:${result.source.line}` : result.source.file,
    input: truncate(describeInput(result.input), FIELD_LIMIT),
    assertions: result.assertions.map((a) => assertionRow(a, cut)),
    logs: caseLogs(result).map((line) => truncate(line, FIELD_LIMIT)),
    runs:
      result.runs.length > 1
        ? result.runs.map((r) => ({
            run: r.run,
            status: r.status,
            duration: formatDuration(r.duration_ms),
            ...(r.error ? { error: truncate(r.error, FIELD_LIMIT) } : {}),
            ...(flaky && r.output !== undefined ? { output: cut(r.output) } : {}),
          }))
        : [],
  };
  if (grade) row.grade = grade;
  if (result.tags?.length) row.tags = [...result.tags];
  const error =
    result.error ??
    (result.status === 'skipped' ? (result.skip_reason ?? (result.todo ? 'todo' : undefined)) : undefined);
  if (error) row.error = truncate(error, FIELD_LIMIT);
  if (result.expected !== undefined) row.expected = cut(result.expected);
  if (result.output !== undefined) row.output = cut(result.output);
  const conversation = conversationData(result, FIELD_LIMIT);
  if (conversation) row.conversation = conversation;
  Object.assign(row, historyFields(result));
  if (s)
    row.stability = `${s.passed}/${s.runs} runs passed (${s.pass_rate.toFixed(1)}%), ${s.stability_class}, avg ${formatDuration(s.avg_duration_ms)} ± ${formatDuration(s.std_deviation_ms)}`;
  if (result.variance) row.variance = varianceLine(result.variance);
  const usage = usageText(result.usage);
  if (usage) row.usage = usage;
  if (result.warnings?.length) row.warnings = truncate(result.warnings.join('\n'), FIELD_LIMIT);
  return row;
}

/** The run history's strip and flakiness, and the sequential test's stop, as the page shows them. */
function historyFields(result: ReadonlyResult): Pick<RowData, 'recent' | 'flaky' | 'sequential'> {
  const fields: Pick<RowData, 'recent' | 'flaky' | 'sequential'> = {};
  if (result.history?.recent.length) fields.recent = [...result.history.recent];
  const flips = result.history?.flaky;
  if (flips)
    fields.flaky = `flipped ${flips.flips} of ${flips.transitions} times between consecutive runs (flip rate ${percent(flips.flip_rate)}, 95% CI ${percent(flips.flip_rate_ci[0])}–${percent(flips.flip_rate_ci[1])})`;
  const policy = result.run_policy;
  if (policy)
    fields.sequential = `${policy.runs} of at most ${policy.max} runs${policy.decision ? `: ${policy.decision}` : ''}${policy.reason ? ` (${policy.reason})` : ''}`;
  return fields;
}

function percent(rate: number): string {
  return `${Math.round(rate * 100)}%`;
}

/** An assertion as the page shows it; a failed one with both values gets a diff of expected against actual. */
function assertionRow(
  a: ReadonlyResult['assertions'][number],
  cut: (value: unknown) => string | undefined,
): RowData['assertions'][number] {
  const expected = cut(a.expected);
  const actual = cut(a.actual);
  const diff = !a.pass && expected !== undefined && actual !== undefined ? lineDiff(expected, actual) : undefined;
  return {
    type: `${a.negate ? 'not ' : ''}${a.type}`,
    pass: a.pass,
    ...(a.message ? { message: a.message } : {}),
    ...(expected !== undefined ? { expected } : {}),
    ...(actual !== undefined ? { actual } : {}),
    ...(diff ? { diff } : {}),
    ...(a.judge ? { judge: judgeLine(a.judge) } : {}),
  };
}

/**
 * The page's data island: JSON inside `<script type="application/json">`. Every `<` is written as
 * `\u003c`, so no value can close the script element or open a comment, whatever the agent said.
 */
export function dataIsland(report: Report): string {
  const rows = report.results.map(rowData);
  return safeStringify({ rows, runsPerCase: report.summary.runs_per_case })!
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
