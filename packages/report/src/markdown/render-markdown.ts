import type { DeepReadonly, Execution } from '@agentest/kernel';
import { caseLogs } from '../case-logs.js';
import { judgeLine, varianceLine } from '../judged-text.js';
import { formatMetric, thresholdSign } from '../metric-format.js';
import { metricRows } from '../metric-rows.js';
import type { ReadonlyResult, Report } from '../report.js';
import { gradeOf, representative } from '../representative.js';
import {
  caseLabel,
  capitalise,
  describeInput,
  displayValue,
  failedAssertions,
  formatDuration,
  formatPercent,
  interruptionNote,
  isFailure,
  statusIcon,
  truncate,
} from '../text.js';
import { haltNote, unassertedNote, usageText } from '../usage.js';
import { comparisonSection } from './comparison-section.js';
import { conversationSection, robustnessSection } from './dynamic-section.js';
import { dynamicOf } from '../dynamic.js';
import { flakySection, sequentialSection } from './history-section.js';
import { code, fence, inline, table } from './syntax.js';

export interface MarkdownOptions {
  /** Passed cases get their input and output excerpts too, and excerpts are longer. */
  verbose?: boolean;
  /** `failures` lists only the cases that did not pass (for size-limited places like a CI job summary). */
  results?: 'all' | 'failures';
  /** At most this many case sections; the rest are counted in one line. */
  maxResults?: number;
}

/**
 * The seed's Markdown report: Summary, Environment, Results (one heading per case), Stability
 * Analysis when runs > 1, Metrics and the ship verdict when present, Metadata.
 */
export function renderMarkdown(report: Report, options: MarkdownOptions = {}): string {
  const interrupted = interruptionNote(report.summary);
  const sections = [
    `# ${report.metadata.kind === 'script' ? 'Script Test Report' : 'Agent Test Report'}`,
    interrupted ? `> ⚠️ **${capitalise(interrupted)}.** The run was stopped; the results below are partial.` : '',
    summarySection(report),
    comparisonSection(report.summary.comparison),
    suiteHooksSection(report),
    environmentSection(report),
    resultsSection(report, options),
    stabilitySection(report),
    robustnessSection(report.summary),
    sequentialSection(report),
    flakySection(report),
    metricsSection(report),
    metadataSection(report),
  ];
  return `${sections.filter(Boolean).join('\n\n')}\n`;
}

function summarySection({ summary, metadata }: Report): string {
  const rows: string[][] = [];
  if (metadata.kind === 'script') {
    rows.push(['Script', metadata.script ?? summary.agent_id]);
    if (metadata.script_path) rows.push(['Path', metadata.script_path]);
  } else {
    rows.push(['Agent', summary.agent_id]);
    if (summary.connector) rows.push(['Connector', summary.connector]);
  }
  rows.push(['Total', String(summary.total)], ['Passed', String(summary.passed)], ['Failed', String(summary.failed)]);
  if (summary.skipped) rows.push(['Skipped', String(summary.skipped)]);
  if (summary.errors) rows.push(['Errors', String(summary.errors)]);
  if (summary.timeouts) rows.push(['Timeouts', String(summary.timeouts)]);
  const unasserted = unassertedNote(summary);
  if (unasserted) rows.push(['No Assertion', `⚠ ${unasserted}`]);
  if (summary.runs_per_case > 1)
    rows.push(['Runs per Case', String(summary.runs_per_case)], ['Total Runs', String(summary.total_runs)]);
  // With several runs per case this counts runs; the `pass_rate` metric counts cases.
  rows.push(
    [summary.runs_per_case > 1 ? 'Run Pass Rate' : 'Pass Rate', formatPercent(summary.overall_pass_rate)],
    ['Duration', formatDuration(summary.duration_ms)],
  );
  if (summary.interrupted) rows.push(['Interrupted', `yes: ${summary.not_run ?? 0} not run`]);
  const usage = usageText(summary.usage);
  if (usage) rows.push(['Usage', usage]);
  const halted = haltNote(summary);
  if (halted) rows.push(['Stopped', halted]);
  return `## Summary\n\n${table(['Metric', 'Value'], rows)}`;
}

/** What the suite's BeforeAll and AfterAll hooks printed. */
function suiteHooksSection({ summary }: Report): string {
  const { before_all: before = [], after_all: after = [] } = summary.hook_logs ?? {};
  if (!before.length && !after.length) return '';
  const parts = ['## Suite Hooks'];
  if (before.length) parts.push(`**BeforeAll output**\n\n${fence(truncate(before.join('\n'), 4000))}`);
  if (after.length) parts.push(`**AfterAll output**\n\n${fence(truncate(after.join('\n'), 4000))}`);
  return parts.join('\n\n');
}

function environmentSection({ environment }: Report): string {
  if (!environment.user_id && !environment.team_id) return '';
  const rows = [
    ['User', environment.user_id],
    ['Team', environment.team_id],
    ['Locale', environment.locale],
  ];
  return `## Environment\n\n${table(['Setting', 'Value'], rows)}`;
}

function resultsSection(report: Report, options: MarkdownOptions): string {
  const onlyFailures = options.results === 'failures';
  const chosen = onlyFailures ? report.results.filter((r) => isFailure(r.status)) : report.results;
  const limit = options.maxResults ?? Infinity;
  const shown = chosen.slice(0, limit);
  const parts = [onlyFailures ? '## Failures' : '## Results'];
  if (chosen.length === 0) parts.push(onlyFailures ? 'Every case passed.' : 'No case ran.');
  for (const result of shown) parts.push(caseSection(result, report.summary.runs_per_case, options.verbose ?? false));
  const hidden = chosen.length - shown.length;
  if (hidden > 0)
    parts.push(`_…and ${hidden} more ${onlyFailures ? 'failures' : 'cases'}, left out to keep this report short._`);
  if (onlyFailures && report.results.length > chosen.length)
    parts.push(`_${report.results.length - chosen.length} cases that passed or were skipped are not listed._`);
  return parts.join('\n\n');
}

function caseSection(result: ReadonlyResult, runsPerCase: number, verbose: boolean): string {
  const grade = gradeOf(result);
  // Whole milliseconds, as the seed's and Yao's headings write them: `(234ms)`, `(0ms)`, `(12345ms)`.
  const duration =
    runsPerCase > 1 && result.runs.length > 1
      ? `${Math.round(result.duration_ms / result.runs.length)}ms avg`
      : `${Math.round(result.duration_ms)}ms`;
  // A skipped case did not run: no duration.
  const lines = [
    `### ${statusIcon(result.status)} ${inline(caseLabel(result))} - ${result.status}${grade ? ` · ${inline(grade)}` : ''}${result.status === 'skipped' ? '' : ` (${duration})`}`,
  ];
  const failing = isFailure(result.status);
  if (result.status === 'skipped') {
    lines.push(`**Skipped:** ${inline(result.skip_reason ?? (result.todo ? 'todo' : 'skipped'))}`);
    return lines.join('\n\n');
  }
  if (failing || verbose)
    lines.push(
      `**Source:** ${code(result.source.line ? `${result.source.file}:${result.source.line}` : result.source.file)}`,
    );
  if (result.stability)
    lines.push(
      `**Runs:** ${result.stability.passed}/${result.stability.runs} passed (${formatPercent(result.stability.pass_rate)}, ${result.stability.stability_class})`,
    );
  if (result.variance) lines.push(`**Variance:** ${inline(varianceLine(result.variance))}`);
  for (const warning of result.warnings ?? []) lines.push(`**Warning:** ${inline(warning)}`);
  const usage = usageText(result.usage);
  if (usage) lines.push(`**Usage:** ${usage}`);
  if (result.error)
    lines.push(
      result.error.includes('\n') ? `**Error:**\n\n${fence(result.error)}` : `**Error:** ${inline(result.error)}`,
    );
  const failed = failedAssertions(result);
  if (failed.length) {
    const rows = failed.map((a) => [
      `${a.negate ? 'not ' : ''}${a.type}`,
      excerpt(a.expected, 120),
      excerpt(a.actual, 120),
      a.judge ? `${a.message ?? ''} (${judgeLine(a.judge)})` : (a.message ?? ''),
    ]);
    lines.push(`**Failed assertions**\n\n${table(['Assertion', 'Expected', 'Actual', 'Message'], rows)}`);
  }
  const run = representative(result);
  const scriptAssertion = run?.details?.assertion;
  if (failing && scriptAssertion && !failed.length)
    lines.push(`**Assertion**\n\n${fence(excerpt(scriptAssertion, 1000), 'json')}`);
  const dynamic = dynamicOf(result);
  if (dynamic) lines.push(conversationSection(dynamic, verbose || failing ? 300 : 120));
  if (failing || verbose) {
    const size = verbose ? 2000 : 500;
    lines.push(`**Input**\n\n${fence(truncate(describeInput(result.input), size))}`);
    if (result.expected !== undefined && !result.assertions.length)
      lines.push(`**Expected**\n\n${fence(excerpt(result.expected, size))}`);
    if (result.output !== undefined) lines.push(`**Output**\n\n${fence(excerpt(result.output, size))}`);
    const failedRuns = failedRunLines(result.runs);
    if (runsPerCase > 1 && failedRuns) lines.push(`**Failed runs**\n\n${failedRuns}`);
    const logs = caseLogs(result);
    if (logs.length) lines.push(`**Logs**\n\n${fence(truncate(logs.join('\n'), size * 2))}`);
    if (failing) lines.push(...toolCallTable(run));
  }
  return lines.join('\n\n');
}

/** The tool calls of a failing case's representative run, as a table (none when it made no call). */
function toolCallTable(run: DeepReadonly<Execution> | undefined): string[] {
  const toolCalls = run?.tool_calls ?? [];
  if (!toolCalls.length) return [];
  const rows = toolCalls.map((t) => [
    t.server ?? '',
    t.name,
    t.error ? `ERR: ${t.error}` : 'OK',
    excerpt(t.arguments, 60),
  ]);
  return [`**Tool Calls**\n\n${table(['Server', 'Tool', 'Status', 'Arguments'], rows)}`];
}

function failedRunLines(runs: readonly DeepReadonly<Execution>[]): string {
  return runs
    .filter((r) => isFailure(r.status))
    .map(
      (r) =>
        `- run ${r.run}: ${r.status} (${formatDuration(r.duration_ms)})${r.error ? ` ${inline(truncate(r.error, 200))}` : ''}`,
    )
    .join('\n');
}

function stabilitySection({ results, summary }: Report): string {
  if (summary.runs_per_case <= 1) return '';
  const rows = results
    .filter((r) => r.stability)
    .map((r) => {
      const s = r.stability!;
      return [
        caseLabel(r),
        formatPercent(s.pass_rate),
        `${s.passed}/${s.runs}`,
        s.stability_class,
        formatDuration(s.avg_duration_ms),
        formatDuration(s.std_deviation_ms),
        s.pass_hat_k.toFixed(2),
        `${s.pass_rate_ci[0].toFixed(0)}–${s.pass_rate_ci[1].toFixed(0)}%`,
      ];
    });
  const counts = `**Stable cases:** ${summary.stable_cases ?? 0} · **Unstable cases:** ${summary.unstable_cases ?? 0}`;
  return `## Stability Analysis\n\n${counts}\n\n${table(['ID', 'Run Pass Rate', 'Runs', 'Status', 'Avg Duration', 'Std Dev', 'pass^k', '95% CI'], rows)}`;
}

function metricsSection({ summary }: Report): string {
  const rows = metricRows(summary).map(({ name, value, limit }) => [
    name,
    value === undefined ? 'not measured' : formatMetric(name, value),
    limit === undefined ? '' : `${thresholdSign(name)} ${formatMetric(name, limit)}`,
  ]);
  if (!rows.length) return '';
  const parts = [`## Metrics\n\n${table(['Metric', 'Value', 'Threshold'], rows)}`];
  if (summary.verdict) {
    const issues = summary.verdict.issues.map((issue) => `- ${inline(issue)}`).join('\n');
    parts.push(
      `## Verdict\n\n${summary.verdict.can_ship ? '**✅ SHIP IT**' : '**❌ DO NOT SHIP**'}${issues ? `\n\n${issues}` : ''}`,
    );
  }
  return parts.join('\n\n');
}

function metadataSection({ metadata }: Report): string {
  const rows = [
    ['Started', metadata.started_at],
    ['Completed', metadata.completed_at],
    ['Input File', metadata.input_file],
  ];
  if (metadata.script_path) rows.push(['Script Path', metadata.script_path]);
  if (metadata.output_file) rows.push(['Output File', metadata.output_file]);
  return `## Metadata\n\n${table(['Field', 'Value'], rows)}`;
}

function excerpt(value: unknown, max: number): string {
  return truncate(displayValue(value), max);
}
