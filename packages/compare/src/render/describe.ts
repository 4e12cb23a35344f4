import { formatDuration } from '@agentest/report';
import type {
  CaseChange,
  Category,
  Comparison,
  MetricChange,
  SideEvidence,
  SideInfo,
  VerdictKind,
} from '../comparison.js';
import { formatP, points } from '../suite-verdict.js';

/** The words every rendering of a comparison shares, so the console, Markdown and HTML agree. */

export const VERDICT_TITLES: Record<VerdictKind, string> = {
  regressed: 'REGRESSED',
  improved: 'IMPROVED',
  no_significant_change: 'NO SIGNIFICANT CHANGE',
};

export const CATEGORY_LABELS: Record<Category, string> = {
  regressed: 'regressed',
  fixed: 'fixed',
  still_failing: 'still failing',
  still_passing: 'still passing',
  new: 'new',
  removed: 'removed',
  skipped: 'skipped',
};

export const CATEGORY_ICONS: Record<Category, string> = {
  regressed: '✗',
  fixed: '✓',
  still_failing: '•',
  still_passing: '·',
  new: '+',
  removed: '−',
  skipped: '○',
};

const percent = (fraction: number) => `${(Math.round(fraction * 1000) / 10).toFixed(1)}%`;

/** `passed`, or with several runs `6/10 (60.0%, 31.3–83.2%)`. */
export function sideText(side: SideEvidence | undefined): string {
  if (!side) return '—';
  if (side.runs === 0) return side.status;
  if (!side.interval) return side.status;
  return `${side.passed}/${side.runs} (${percent(side.passRate)}, ${percent(side.interval.lower)}–${percent(side.interval.upper)})`;
}

/** The reason to show for a case: why it fails now, or why it failed before it was fixed. */
export function evidenceText(change: CaseChange): string {
  const now = change.head?.messages[0];
  const before = change.base?.messages[0];
  const parts: string[] = [];
  if (change.category === 'fixed' || change.category === 'removed') {
    if (before) parts.push(`was: ${before}`);
  } else if (now) {
    parts.push(now);
    if (change.category === 'still_failing' && before && before !== now) parts.push(`was: ${before}`);
  }
  if (change.test?.flag)
    parts.push(`Fisher p = ${formatP(change.test.adjusted)} after Holm: significantly ${change.test.flag}`);
  return parts.join(' · ');
}

/** One line about a report: what ran, from which file, with which agent and how many runs. */
export function sideSummary(side: SideInfo): string {
  const parts = [side.suite || '(unnamed suite)', side.file];
  if (side.agent) parts.push(`agent ${side.agent}${side.connector ? ` (${side.connector})` : ''}`);
  parts.push(`${side.cases} cases × ${side.runsPerCase} run${side.runsPerCase === 1 ? '' : 's'}`);
  if (side.startedAt) parts.push(side.startedAt);
  return parts.join(' · ');
}

/** `pass rate 100.0% → 62.5% (−37.5 points, 95% interval [−58.3, −16.7])`. */
export function passRateText(comparison: Comparison): string {
  const { difference, alpha } = comparison.verdict;
  const level = `${Math.round((1 - alpha) * 1000) / 10}%`;
  const [baseRate, headRate] = pairedRates(comparison);
  return `Pass rate ${percent(baseRate)} → ${percent(headRate)} (${points(difference.estimate)} points, ${level} interval [${points(difference.lower)}, ${points(difference.upper)}])`;
}

/** Mean pass rates over the cases that ran on both sides. */
function pairedRates(comparison: Comparison): [number, number] {
  const paired = comparison.cases.filter((c) => c.base?.runs && c.head?.runs);
  const mean = (values: number[]) => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0);
  return [mean(paired.map((c) => c.base!.passRate)), mean(paired.map((c) => c.head!.passRate))];
}

const METRIC_NAMES: Record<MetricChange['metric'], string> = { latency_ms: 'latency', tokens: 'tokens', cost: 'cost' };

export function metricName(metric: MetricChange['metric']): string {
  return METRIC_NAMES[metric];
}

export function metricValue(metric: MetricChange['metric'], value: number): string {
  if (!Number.isFinite(value)) return '—';
  if (metric === 'latency_ms') return formatDuration(Math.abs(value));
  if (metric === 'cost') return `$${Math.abs(value).toFixed(4)}`;
  return String(Math.round(Math.abs(value) * 10) / 10);
}

function signed(metric: MetricChange['metric'], value: number): string {
  const sign = value > 0 ? '+' : value < 0 ? '−' : '';
  return `${sign}${metricValue(metric, value)}`;
}

/** `latency median 1.1s → 1.5s (+400ms, interval [+350ms, +450ms]): higher`. */
export function metricText(m: MetricChange): string {
  const verdict = m.change === 'up' ? 'higher' : m.change === 'down' ? 'lower' : 'no clear change';
  return `${capitalise(metricName(m.metric))} median ${metricValue(m.metric, m.baseMedian)} → ${metricValue(m.metric, m.headMedian)} (${signed(m.metric, m.difference)}, interval [${signed(m.metric, m.lower)}, ${signed(m.metric, m.upper)}] over ${m.cases} cases): ${verdict}`;
}

export function metricChangeText(m: MetricChange): string {
  return signed(m.metric, m.difference);
}

export function metricIntervalText(m: MetricChange): string {
  return `[${signed(m.metric, m.lower)}, ${signed(m.metric, m.upper)}]`;
}

/** What `--detect` found, as sentences. */
export function detectionText(comparison: Comparison): string[] {
  const d = comparison.detection;
  if (!d) return [];
  const drop = `${points(d.delta, false)}-point drop`;
  if (d.decided && comparison.verdict.verdict !== 'no_significant_change')
    return ['The data decide: the verdict is significant.'];
  if (d.decided)
    return [
      `A ${drop} is ruled out: the interval lies above −${points(d.delta, false)} points and these ${d.casesCompared} cases are enough (about ${d.needed.cases} needed).`,
    ];
  const lines = [
    `These ${d.casesCompared} cases cannot rule out a ${drop}: detecting it needs about ${d.needed.cases} cases at these runs per case (Var(d) ${d.variance.toFixed(4)}).`,
  ];
  if (d.runs !== undefined) {
    lines.push(
      d.runs === null
        ? 'More runs per case cannot make up for it, since the cases differ from each other too much: add cases.'
        : `Or about ${d.runs} runs per case on each side with these ${d.casesCompared} cases.`,
    );
  }
  return lines;
}

/** The counts in reading order, without the empty ones: `2 regressed · 1 fixed · 12 still passing`. */
export function countsText(comparison: Comparison): string {
  const order: Category[] = ['regressed', 'fixed', 'still_failing', 'new', 'removed', 'skipped', 'still_passing'];
  return order
    .filter((c) => comparison.counts[c] > 0)
    .map((c) => `${comparison.counts[c]} ${CATEGORY_LABELS[c]}`)
    .join(' · ');
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
