import { cell, code, inline, table, truncate } from '@agentest/report';
import type { CaseChange, Comparison } from '../comparison.js';
import {
  CATEGORY_LABELS,
  VERDICT_TITLES,
  countsText,
  detectionText,
  evidenceText,
  metricChangeText,
  metricIntervalText,
  metricName,
  metricValue,
  passRateText,
  sideSummary,
  sideText,
} from './describe.js';

/** GitHub rejects a comment body longer than this many characters. */
export const GITHUB_COMMENT_LIMIT = 65_536;

const VERDICT_ICONS = { regressed: '❌', improved: '✅', no_significant_change: '✅' } as const;
const CATEGORY_ICONS = {
  regressed: '🔴',
  fixed: '🟢',
  still_failing: '🟡',
  new: '🆕',
  removed: '➖',
  skipped: '⏭️',
  still_passing: '⚪',
} as const;
const EVIDENCE_LENGTH = 300;

/**
 * The comparison as a pull-request comment. It always fits GitHub's limit: the summary, the
 * statistics and the metrics come first, then one table row per changed case while there is room,
 * and a line saying how many rows were left out (the JSON output has them all).
 */
export function renderMarkdown(comparison: Comparison, limit = GITHUB_COMMENT_LIMIT): string {
  const head = headSections(comparison);
  const tail = tailSections(comparison);
  const cases = comparison.cases.filter((c) => c.category !== 'still_passing');
  const header = ['Case', 'Change', 'Base', 'Head', 'Evidence'];
  const rows = cases.map(row);
  const fixed = `${head}\n\n### Cases\n\n${table(header, [])}\n`;
  let budget = limit - fixed.length - tail.length - 400;
  const kept: string[][] = [];
  for (const r of rows) {
    const size = table(header, [r]).split('\n')[2]!.length + 1;
    if (size > budget) break;
    budget -= size;
    kept.push(r);
  }
  const left = rows.length - kept.length;
  const casesSection = rows.length
    ? `### Cases\n\n${table(header, kept)}${left ? `\n\n…and ${left} more changed case${left === 1 ? '' : 's'} not shown: the comment would pass GitHub's ${GITHUB_COMMENT_LIMIT.toLocaleString('en')}-character limit. Write \`-o comparison.json\` or \`-o comparison.html\` for all of them.` : ''}`
    : 'No case changed.';
  return `${head}\n\n${casesSection}${tail}\n`;
}

function headSections(comparison: Comparison): string {
  const { verdict } = comparison;
  const lines = [
    `## ${VERDICT_ICONS[verdict.verdict]} agentest compare: ${VERDICT_TITLES[verdict.verdict]}`,
    '',
    `**${inline(verdict.reason)}**`,
    '',
    `${inline(passRateText(comparison))}. ${inline(countsText(comparison))}.`,
    '',
    table(
      ['', 'report'],
      [
        ['base', sideSummary(comparison.base)],
        ['head', sideSummary(comparison.head)],
      ],
    ),
  ];
  if (comparison.metrics.length) {
    const rows = comparison.metrics.map((m) => [
      metricName(m.metric),
      metricValue(m.metric, m.baseMedian),
      metricValue(m.metric, m.headMedian),
      metricChangeText(m),
      metricIntervalText(m),
      m.change === 'none' ? 'no clear change' : m.change === 'up' ? '⬆️ higher' : '⬇️ lower',
    ]);
    lines.push('', table(['median', 'base', 'head', 'change', 'interval', ''], rows));
  }
  return lines.join('\n');
}

function tailSections(comparison: Comparison): string {
  const parts: string[] = [];
  const detection = detectionText(comparison);
  if (detection.length) parts.push(`### Sample size\n\n${detection.map(inline).join('\n\n')}`);
  if (comparison.notes.length) parts.push(`### Notes\n\n${comparison.notes.map((n) => `- ${inline(n)}`).join('\n')}`);
  const method =
    comparison.verdict.method === 'mcnemar'
      ? 'one run per side: exact McNemar test on the cases that changed (two-sided)'
      : `several runs per side: two-level paired bootstrap (${comparison.verdict.difference.resamples.toLocaleString('en')} resamples, margin ${comparison.verdict.margin})`;
  parts.push(
    `<sub>Verdict by ${cell(method)}; per-case flags by Fisher's exact test with Holm's correction; α ${comparison.verdict.alpha}.</sub>`,
  );
  return `\n\n${parts.join('\n\n')}`;
}

function row(change: CaseChange): string[] {
  return [
    code(change.name ? `${change.id} (${change.name})` : change.id),
    `${CATEGORY_ICONS[change.category]} ${CATEGORY_LABELS[change.category]}`,
    sideText(change.base),
    sideText(change.head),
    truncate(evidenceText(change).replace(/\s+/g, ' '), EVIDENCE_LENGTH),
  ];
}
