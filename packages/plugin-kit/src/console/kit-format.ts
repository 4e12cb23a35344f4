import {
  colourWanted,
  displayWidth,
  fit,
  formatBound,
  formatMetric,
  meetsThreshold,
  padEnd,
  terminalSafe as safe,
} from '@agentest/report';

/**
 * agentest-kit's terminal format, line for line, over plain data: the kit layout the console prints
 * kit suites with and the kit's programmatic `print*` API both print through these, so the two cannot drift apart.
 * Every function takes a colour switch last; left out, it follows stdout (a TTY, `NO_COLOR`,
 * `FORCE_COLOR`). Colour uses agentest-kit's own codes (each span ends in a full reset).
 */

const CODES = {
  reset: 0,
  bold: 1,
  dim: 2,
  red: 31,
  green: 32,
  yellow: 33,
  cyan: 36,
  gray: 90,
  bgRed: 41,
  bgGreen: 42,
} as const;
export type KitStyle = keyof typeof CODES;
export type KitStatus = 'PASS' | 'PARTIAL' | 'FAIL' | 'SKIP' | 'TODO';

/** What a case line and its details read of a kit result (agentest-kit's StandardResult). */
export interface KitRow {
  elapsed_ms: number;
  error?: string | null;
  structure_ok?: boolean;
  keyword_hits?: readonly string[];
  keyword_hit_rate?: number | null;
  failure_details?: readonly string[];
}

/** The seed's metrics; other measured values may ride along and are found by name for thresholds. */
export interface KitMetrics {
  /** Active cases: neither skipped nor todo. */
  total: number;
  keyword_hit_rate?: number | null;
  intent_match_rate?: number | null;
  avg_quality_score?: number | null;
  avg_latency_ms?: number | null;
}

export interface KitVerdict {
  can_ship: boolean;
  issues: readonly string[];
}

const RULE = '─';
const BADGES: Record<KitStatus, [string, KitStyle]> = {
  PASS: [' PASS ', 'green'],
  PARTIAL: [' PART ', 'yellow'],
  FAIL: [' FAIL ', 'red'],
  SKIP: [' SKIP ', 'gray'],
  TODO: [' TODO ', 'cyan'],
};
const defaultColour = () => colourWanted(process.stdout);

/** Wraps text in the given styles when colour is on; returns it untouched otherwise. */
export function kitPaint(color: boolean): (text: string, ...styles: KitStyle[]) => string {
  return (text, ...styles) =>
    color && styles.length ? `${styles.map((s) => `\x1b[${CODES[s]}m`).join('')}${text}\x1b[0m` : text;
}

export function colorStatus(status: KitStatus, color = defaultColour()): string {
  const [text, style] = BADGES[status] ?? BADGES.FAIL;
  return kitPaint(color)(text, style, 'bold');
}

/**
 * The suite title, upper-cased, then two spaces and the API address (the spaces even without one, as
 * agentest-kit prints), over a rule.
 */
export function formatSuiteHeader(label: string, apiUrl = '', color = defaultColour()): string {
  const paint = kitPaint(color);
  return `\n${paint(` ${safe(label.toUpperCase())} `, 'bold', 'cyan')}${paint(`  ${safe(apiUrl)}`, 'dim')}\n${paint(RULE.repeat(68), 'dim')}`;
}

export function formatSuiteFooter(color = defaultColour()): string {
  return kitPaint(color)(RULE.repeat(68), 'dim');
}

/** agentest-kit's id column: 6 columns, wider only when an id of the suite needs it. */
const ID_COLUMNS = 6;

/**
 * `  PASS  C001    <name, 40 columns>  151ms`; SKIP and TODO show `—` for the latency. `idWidth`
 * (from `kitIdWidth` over the suite's cases) widens the id column so that every row of the suite,
 * test functions included, lines up.
 */
export function formatCaseLine(
  result: Pick<KitRow, 'elapsed_ms'>,
  tc: { id: string; name: string },
  status: KitStatus,
  color = defaultColour(),
  idWidth = ID_COLUMNS,
): string {
  const paint = kitPaint(color);
  const latency = status === 'SKIP' || status === 'TODO' ? '—' : `${Math.round(result.elapsed_ms)}ms`;
  return `  ${colorStatus(status, color)} ${paint(padEnd(safe(shortId(tc)), idWidth), 'bold')}  ${paint(fit(safe(tc.name), 40), 'gray')}  ${paint(latency, 'dim')}`;
}

/** The id column's width for a suite's cases: agentest-kit's 6, or the widest id the rows show. */
export function kitIdWidth(cases: Iterable<{ id: string; name?: string }>): number {
  let width = ID_COLUMNS;
  for (const tc of cases) width = Math.max(width, displayWidth(safe(shortId({ id: tc.id, name: tc.name ?? tc.id }))));
  return width;
}

/** A test's id is `<file>#<name>`; the line already shows the name, so the id column shows the file. */
function shortId(tc: { id: string; name: string }): string {
  const suffix = `#${tc.name}`;
  return tc.id.endsWith(suffix) && tc.id.length > suffix.length
    ? tc.id.slice(0, -suffix.length).split('/').pop()!
    : tc.id;
}

/**
 * The diagnostics under a PARTIAL or FAIL line: the error alone, or the structure check, the failure
 * details and the keyword line (expected keywords green when hit, red when missed).
 */
export function formatCaseDetail(
  result: Omit<KitRow, 'elapsed_ms'>,
  tc: { expected_keywords: readonly string[] },
  color = defaultColour(),
): string[] {
  const paint = kitPaint(color);
  const indent = ' '.repeat(7);
  // Any present error is one, an empty message included (it fails the case).
  if (result.error !== null && result.error !== undefined)
    return [`${indent}${paint(`● error: ${safe(result.error) || '(empty message)'}`, 'red')}`];
  const lines: string[] = [];
  if (!result.structure_ok) lines.push(`${indent}${paint('● structure check failed', 'red')}`);
  for (const line of result.failure_details ?? []) lines.push(`${indent}${paint(`● ${safe(line)}`, 'yellow')}`);
  const rate = result.keyword_hit_rate;
  if (typeof rate === 'number') {
    const hits = new Set(result.keyword_hits ?? []);
    const keywords = (tc.expected_keywords.length ? tc.expected_keywords : [...hits])
      .map((k) => paint(safe(k), hits.has(k) ? 'green' : 'red'))
      .join('  ');
    lines.push(
      `${indent}${paint(`${(rate * 100).toFixed(1)}%`, rate >= 0.5 ? 'green' : 'yellow')} keywords: ${keywords}`,
    );
  }
  return lines;
}

/** The `Tests:` line over results, each given its status by `getStatus`. */
export function formatSummary<T>(
  results: readonly T[],
  getStatus: (r: T) => KitStatus,
  color = defaultColour(),
): string {
  const counts: Partial<Record<KitStatus, number>> = {};
  for (const r of results) {
    const status = getStatus(r);
    counts[status] = (counts[status] ?? 0) + 1;
  }
  return formatStatusCounts(counts, color);
}

/** `  Tests:  3 passed | 1 partial | 1 failed | 1 skipped | 1 todo  (5 active / 7 total)`, zero counts left out. */
export function formatStatusCounts(counts: Partial<Record<KitStatus, number>>, color = defaultColour()): string {
  const paint = kitPaint(color);
  const n = (status: KitStatus) => counts[status] ?? 0;
  const parts: [number, string, KitStyle][] = [
    [n('PASS'), 'passed', 'green'],
    [n('PARTIAL'), 'partial', 'yellow'],
    [n('FAIL'), 'failed', 'red'],
    [n('SKIP'), 'skipped', 'gray'],
    [n('TODO'), 'todo', 'cyan'],
  ];
  const shown = parts
    .filter(([count]) => count > 0)
    .map(([count, word, style]) => paint(`${count} ${word}`, style))
    .join(paint(' | ', 'dim'));
  const active = n('PASS') + n('PARTIAL') + n('FAIL');
  const total = active + n('SKIP') + n('TODO');
  return `\n${paint('  Tests:', 'bold')}  ${shown}${paint(`  (${active} active / ${total} total)`, 'dim')}`;
}

/**
 * The Metrics block: the two rates the seed shows (N/A when nothing measured them), then any other
 * threshold, then the averages. A rate without a threshold is shown without a mark.
 */
export function formatMetrics(
  metrics: KitMetrics,
  thresholds: Readonly<Record<string, number>> = {},
  label = '',
  color = defaultColour(),
): string[] {
  const paint = kitPaint(color);
  const lines = [`\n${paint(`  Metrics${label ? ` — ${label}` : ''}`, 'bold')}`, paint(`  ${RULE.repeat(50)}`, 'dim')];
  const names = [
    'keyword_hit_rate',
    'intent_match_rate',
    ...Object.keys(thresholds).filter((n) => n !== 'keyword_hit_rate' && n !== 'intent_match_rate'),
  ];
  for (const name of names) lines.push(metricLine(name, kitMetricValue(metrics, name), thresholds[name], paint));
  // A value nobody measured is N/A on its own, without the unit (not `N/A/5`, `N/Ams`).
  const avg = (name: 'avg_quality_score' | 'avg_latency_ms', digits: number, unit: string) =>
    typeof metrics[name] === 'number' ? `${metrics[name].toFixed(digits)}${unit}` : 'N/A';
  lines.push(
    paint(
      `\n  Avg Score ${avg('avg_quality_score', 2, '/5')}   Avg Latency ${avg('avg_latency_ms', 0, 'ms')}   Active ${metrics.total}`,
      'dim',
    ),
  );
  return lines;
}

/** agentest-kit pads its metric labels to 18 columns (`'Keyword Hit Rate  '`) before the value's space. */
const LABEL_COLUMNS = 18;

function metricLine(
  name: string,
  value: unknown,
  limit: number | undefined,
  paint: ReturnType<typeof kitPaint>,
): string {
  const label = padEnd(kitMetricLabel(name), LABEL_COLUMNS);
  if (typeof value !== 'number') {
    // A thresholded metric this run did not measure: shown, and not held against the run.
    const why =
      typeof limit === 'number' ? `  (not measured; threshold ${formatBound(name, limit, KIT_DECIMALS)})` : '';
    return paint(`  –  ${label} N/A${why}`, 'dim');
  }
  const shown = formatKitMetric(name, value);
  if (typeof limit !== 'number') return `     ${label} ${shown}`;
  const ok = meetsThreshold(name, value, limit);
  return `  ${ok ? paint('✓', 'green') : paint('✗', 'red')}  ${label} ${paint(shown, ok ? 'green' : 'red')}  ${paint(`(threshold ${formatBound(name, limit, KIT_DECIMALS)})`, 'dim')}`;
}

/** `VERDICT: SHIP IT` on green, or `VERDICT: DO NOT SHIP` on red with one `✗` line per issue. */
export function formatShipVerdict(ship: KitVerdict, color = defaultColour()): string[] {
  const paint = kitPaint(color);
  if (ship.can_ship) return ['', paint('  VERDICT: SHIP IT  ', 'bgGreen', 'bold'), ''];
  return [
    '',
    paint('  VERDICT: DO NOT SHIP  ', 'bgRed', 'bold'),
    ...ship.issues.map((issue) => paint(`  ✗ ${safe(issue)}`, 'red')),
    '',
  ];
}

/** The kernel's names for the two averages, so one thresholds object serves the CLI and the kit API. */
const ALIASES: Record<string, keyof KitMetrics> = { quality_score: 'avg_quality_score', latency_ms: 'avg_latency_ms' };

/** A metric by name, the kernel's `quality_score` / `latency_ms` standing for the kit's averages. */
export function kitMetricValue(metrics: KitMetrics, name: string): unknown {
  const record = metrics as unknown as Record<string, unknown>;
  // Own properties only: `constructor` or `__proto__` never resolve to something inherited.
  if (Object.hasOwn(record, name)) return record[name];
  const alias = Object.hasOwn(ALIASES, name) ? ALIASES[name] : undefined;
  return alias && Object.hasOwn(record, alias) ? record[alias] : undefined;
}

const LABELS: Record<string, string> = {
  keyword_hit_rate: 'Keyword Hit Rate',
  intent_match_rate: 'Intent Match Rate',
  avg_quality_score: 'Avg Quality Score',
  avg_latency_ms: 'Avg Latency',
  quality_score: 'Avg Quality Score',
  latency_ms: 'Avg Latency',
};

export function kitMetricLabel(name: string): string {
  return (
    (Object.hasOwn(LABELS, name) ? LABELS[name] : undefined) ??
    name.replace(/_/g, ' ').replace(/\b\w/g, (c) => c.toUpperCase())
  );
}

/** agentest-kit prints plain numbers with two decimals (`4.20`), as its `Avg Score X.XX/5`. */
const KIT_DECIMALS = { decimals: 2 };

/** Rates as XX.X%, latencies as whole milliseconds (the one metric format), anything else with two decimals. */
export function formatKitMetric(name: string, value: number): string {
  return formatMetric(name, value, KIT_DECIMALS);
}
