import { createHash } from 'node:crypto';
import ejs from 'ejs';
import {
  capitalise,
  displayValue,
  formatDuration,
  formatMetric,
  formatPercent,
  interruptionNote,
  haltNote,
  hasRobustness,
  robustnessLine,
  usageText,
  metricRows as reportMetricRows,
  thresholdSign,
  truncate,
  type Report,
} from '@agentest/report';
import { loadAssets } from './assets.js';
import { chartRows, durationSpreadChart, passRateChart } from './charts.js';
import { coverageSection } from './coverage-section.js';
import { dataIsland } from './view-data.js';

const STATUSES = ['passed', 'failed', 'error', 'timeout', 'skipped'] as const;

/**
 * One self-contained HTML file: summary cards, verdict, metrics and stability charts rendered here;
 * the results table rendered in the page from a JSON data island, a page at a time.
 */
export function renderHtml(report: Report): string {
  const { template, css, js } = loadAssets();
  const { summary, metadata } = report;
  const isScript = metadata.kind === 'script';
  const subject = isScript ? (metadata.script ?? summary.agent_id) : summary.agent_id;
  const stability = summary.runs_per_case > 1 ? chartRows(report.results) : undefined;
  return ejs.render(template, {
    // Only the report's own script may run: an injected inline script or handler is refused by the browser.
    csp: `default-src 'none'; script-src 'sha256-${createHash('sha256').update(js).digest('base64')}'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'`,
    css,
    js,
    capitalise,
    title: `${isScript ? 'Script Test Report' : 'Agent Test Report'} - ${subject}`,
    subtitle: isScript
      ? (metadata.script_path ?? metadata.input_file)
      : [summary.agent_id, summary.connector].filter(Boolean).join(' • '),
    cards: cards(report),
    interrupted: interruptionNote(summary),
    suiteHooks: [
      ['BeforeAll output', summary.hook_logs?.before_all],
      ['AfterAll output', summary.hook_logs?.after_all],
    ]
      .filter((entry): entry is [string, string[]] => Boolean(entry[1]?.length))
      .map(([title, lines]) => ({ title, text: lines.join('\n') })),
    verdict: summary.verdict,
    comparison: summary.comparison,
    metrics: metricRows(report),
    coverage: coverageSection(summary),
    charts: stability?.rows.length
      ? {
          note:
            stability.total > stability.rows.length
              ? `The ${stability.rows.length} least stable of ${stability.total} cases.`
              : `${stability.total} cases, least stable first.`,
          passRate: passRateChart(stability.rows),
          duration: durationSpreadChart(stability.rows),
        }
      : undefined,
    total: report.results.length,
    statusCounts: STATUSES.map((status) => ({
      status,
      count: report.results.filter((r) => r.status === status).length,
    })).filter((s) => s.count > 0),
    robustness: hasRobustness(summary)
      ? {
          line: robustnessLine(summary),
          cases: (summary.robustness ?? []).map((r) => ({
            ...r,
            broken: (r.broken ?? []).map((b) => ({ ...b, input: truncate(displayValue(b.input), 200) })),
          })),
          notFuzzed: summary.not_fuzzed ?? [],
        }
      : undefined,
    metadata: metadataRows(report),
    data: dataIsland(report),
  });
}

function cards({ summary }: Report): { label: string; value: string; tone: string }[] {
  const list = [
    { label: 'Total Tests', value: String(summary.total), tone: '' },
    { label: 'Passed', value: String(summary.passed), tone: 'pass' },
    { label: 'Failed', value: String(summary.failed), tone: summary.failed ? 'fail' : '' },
  ];
  if (summary.errors) list.push({ label: 'Errors', value: String(summary.errors), tone: 'fail' });
  if (summary.timeouts) list.push({ label: 'Timeouts', value: String(summary.timeouts), tone: 'warn' });
  if (summary.skipped) list.push({ label: 'Skipped', value: String(summary.skipped), tone: '' });
  if (summary.flaky?.length) list.push({ label: 'Flaky', value: String(summary.flaky.length), tone: 'warn' });
  // Cases that pass whatever the agent answers: a pass that checked nothing.
  if (summary.unasserted) list.push({ label: 'No Assertion', value: String(summary.unasserted), tone: 'warn' });
  // With --runs > 1 this is the share of passing runs; the `pass_rate` metric counts whole cases.
  list.push({
    label: summary.runs_per_case > 1 ? 'Run Pass Rate' : 'Pass Rate',
    value: formatPercent(summary.overall_pass_rate),
    tone: summary.overall_pass_rate === 100 ? 'pass' : 'warn',
  });
  list.push({ label: 'Duration', value: formatDuration(summary.duration_ms), tone: '' });
  if (summary.runs_per_case > 1) {
    list.push({ label: 'Runs per Case', value: String(summary.runs_per_case), tone: '' });
    list.push({
      label: 'Unstable Cases',
      value: String(summary.unstable_cases ?? 0),
      tone: summary.unstable_cases ? 'warn' : 'pass',
    });
  }
  return list;
}

function metricRows({ summary }: Report): { name: string; value: string; threshold: string; miss: boolean }[] {
  return reportMetricRows(summary).map(({ name, value, limit, met }) => ({
    name,
    value: value === undefined ? 'not measured' : formatMetric(name, value),
    threshold: limit === undefined ? '' : `${thresholdSign(name)} ${formatMetric(name, limit)}`,
    miss: limit !== undefined && met !== true,
  }));
}

function metadataRows({ summary, metadata, environment }: Report): [string, string][] {
  const rows: [string, string][] = [
    ['Started', metadata.started_at],
    ['Completed', metadata.completed_at],
    ['Input File', metadata.input_file],
  ];
  if (metadata.script_path) rows.push(['Script Path', metadata.script_path]);
  if (metadata.output_file) rows.push(['Output File', metadata.output_file]);
  if (summary.connector) rows.push(['Connector', summary.connector]);
  if (environment.user_id)
    rows.push(['User', environment.user_id], ['Team', environment.team_id], ['Locale', environment.locale]);
  if (summary.interrupted) rows.push(['Interrupted', `yes: ${summary.not_run ?? 0} not run`]);
  const usage = usageText(summary.usage);
  if (usage) rows.push(['Usage', usage]);
  const halted = haltNote(summary);
  if (halted) rows.push(['Stopped', halted]);
  return rows;
}
