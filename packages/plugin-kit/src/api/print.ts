import { formatMetric, metricLabel, metricValue } from './metrics.js';
import { fit, paint, padEnd, useColor, type Style } from './terminal.js';
import type { KitTestCase, Metrics, ShipabilityVerdict, TestResult, TestStatus, Thresholds } from './types.js';

const RULE = '─';
const BADGES: Record<TestStatus, [string, Style]> = { PASS: [' PASS ', 'green'], PARTIAL: [' PART ', 'yellow'], FAIL: [' FAIL ', 'red'], SKIP: [' SKIP ', 'gray'], TODO: [' TODO ', 'cyan'] };

/**
 * agentest-kit's terminal format, line for line. Each `format*` returns the text its `print*`
 * prints, so the layout can be checked without a terminal.
 */
export function colorStatus(status: TestStatus): string {
  const [text, color] = BADGES[status] ?? BADGES.FAIL;
  return paint(text, color, 'bold');
}

export function formatSuiteHeader(label: string, apiUrl = ''): string {
  return `\n${paint(` ${label.toUpperCase()} `, 'bold', 'cyan')}${apiUrl ? paint(`  ${apiUrl}`, 'dim') : ''}\n${paint(RULE.repeat(68), 'dim')}`;
}

export function formatCaseLine(result: TestResult, tc: Pick<KitTestCase, 'id' | 'name'>, status: TestStatus): string {
  const latency = status === 'SKIP' || status === 'TODO' ? '—' : `${Math.round(result.elapsed_ms)}ms`;
  return `  ${colorStatus(status)} ${paint(padEnd(shortId(tc), 6), 'bold')}  ${paint(fit(tc.name, 40), 'gray')}  ${paint(latency, 'dim')}`;
}

/** A test's id is `<file>#<name>`; the line already shows the name, so the id column shows the file. */
function shortId(tc: Pick<KitTestCase, 'id' | 'name'>): string {
  const suffix = `#${tc.name}`;
  return tc.id.endsWith(suffix) && tc.id.length > suffix.length ? tc.id.slice(0, -suffix.length).split('/').pop()! : tc.id;
}

/** The diagnostics under a PARTIAL or FAIL line: the error, or structure, failure details and keywords. */
export function formatCaseDetail(result: TestResult, tc: Pick<KitTestCase, 'expected_keywords'>): string[] {
  const indent = ' '.repeat(7);
  if (result.error) return [`${indent}${paint(`● error: ${result.error}`, 'red')}`];
  const lines: string[] = [];
  if (!result.structure_ok) lines.push(`${indent}${paint('● structure check failed', 'red')}`);
  for (const line of result.failure_details ?? []) lines.push(`${indent}${paint(`● ${line}`, 'yellow')}`);
  const rate = result.keyword_hit_rate;
  if (typeof rate === 'number') {
    const hits = new Set(result.keyword_hits ?? []);
    const keywords = (tc.expected_keywords.length ? tc.expected_keywords : [...hits]).map((k) => paint(k, hits.has(k) ? 'green' : 'red')).join('  ');
    lines.push(`${indent}${paint(`${(rate * 100).toFixed(1)}%`, rate >= 0.5 ? 'green' : 'yellow')} keywords: ${keywords}`);
  }
  return lines;
}

export function formatSummary(results: readonly TestResult[], getStatus: (r: TestResult) => TestStatus): string {
  const counts: Record<string, number> = {};
  for (const r of results) {
    const key = getStatus(r).toLowerCase();
    counts[key] = (counts[key] ?? 0) + 1;
  }
  const parts: [number, string, Style][] = [
    [counts.pass ?? 0, 'passed', 'green'], [counts.partial ?? 0, 'partial', 'yellow'], [counts.fail ?? 0, 'failed', 'red'],
    [counts.skip ?? 0, 'skipped', 'gray'], [counts.todo ?? 0, 'todo', 'cyan'],
  ];
  const shown = parts.filter(([n]) => n > 0).map(([n, word, color]) => paint(`${n} ${word}`, color)).join(paint(' | ', 'dim'));
  const active = (counts.pass ?? 0) + (counts.partial ?? 0) + (counts.fail ?? 0);
  return `\n${paint('  Tests:', 'bold')}  ${shown}${paint(`  (${active} active / ${results.length} total)`, 'dim')}`;
}

/**
 * The Metrics block: the two rates the seed shows (N/A when nothing measured them), then any other
 * threshold, then the averages. A rate without a threshold is shown without a mark.
 */
export function formatMetrics(metrics: Metrics, thresholds: Thresholds = {}, label = ''): string[] {
  const lines = [`\n${paint(`  Metrics${label ? ` — ${label}` : ''}`, 'bold')}`, paint(`  ${RULE.repeat(50)}`, 'dim')];
  const names = ['keyword_hit_rate', 'intent_match_rate', ...Object.keys(thresholds).filter((n) => n !== 'keyword_hit_rate' && n !== 'intent_match_rate')];
  for (const name of names) lines.push(metricLine(name, metricValue(metrics, name), thresholds[name]));
  const avg = (name: keyof Metrics, digits: number) => (typeof metrics[name] === 'number' ? (metrics[name] as number).toFixed(digits) : 'N/A');
  lines.push(paint(`\n  Avg Score ${avg('avg_quality_score', 2)}/5   Avg Latency ${avg('avg_latency_ms', 0)}ms   Active ${metrics.total}`, 'dim'));
  return lines;
}

function metricLine(name: string, value: unknown, limit: number | undefined): string {
  const label = padEnd(metricLabel(name), 17);
  if (typeof value !== 'number') return paint(`  –  ${label} N/A`, 'dim');
  const shown = formatMetric(name, value);
  if (typeof limit !== 'number') return `     ${label} ${shown}`;
  const isMax = name.endsWith('_ms');
  const ok = isMax ? value <= limit : value >= limit;
  return `  ${ok ? paint('✓', 'green') : paint('✗', 'red')}  ${label} ${paint(shown, ok ? 'green' : 'red')}  ${paint(`(threshold ${isMax ? '≤' : '≥'}${formatMetric(name, limit)})`, 'dim')}`;
}

export function formatShipVerdict(ship: ShipabilityVerdict): string[] {
  if (ship.can_ship) return ['', paint('  VERDICT: SHIP IT  ', 'bgGreen', 'bold'), ''];
  return ['', paint('  VERDICT: DO NOT SHIP  ', 'bgRed', 'bold'), ...ship.issues.map((issue) => paint(`  ✗ ${issue}`, 'red')), ''];
}

export const printSuiteHeader = (label: string, apiUrl = '') => console.log(formatSuiteHeader(label, apiUrl));
export const printSuiteFooter = () => console.log(paint(RULE.repeat(68), 'dim'));
export const printCaseDetail = (result: TestResult, tc: Pick<KitTestCase, 'expected_keywords'>) => formatCaseDetail(result, tc).forEach((l) => console.log(l));
export const printSummary = (results: readonly TestResult[], getStatus: (r: TestResult) => TestStatus) => console.log(formatSummary(results, getStatus));
export const printMetrics = (metrics: Metrics, thresholds?: Thresholds, label?: string) => formatMetrics(metrics, thresholds, label).forEach((l) => console.log(l));
export const printShipVerdict = (ship: ShipabilityVerdict) => formatShipVerdict(ship).forEach((l) => console.log(l));

/** One case line; on a terminal it first clears the progress line (never in pipes or CI logs). */
export function printCaseLine(result: TestResult, tc: Pick<KitTestCase, 'id' | 'name'>, status: TestStatus): void {
  if (process.stdout.isTTY) process.stdout.write('\x1b[2K');
  console.log(formatCaseLine(result, tc, status));
}

/** A transient progress line, on a terminal only. */
export function writeProgress(message: string): void {
  if (process.stdout.isTTY) process.stdout.write(`${useColor() ? paint(`  ${message}`, 'dim') : `  ${message}`}\r`);
}
