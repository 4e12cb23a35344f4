import { styleText } from 'node:util';
import { displayWidth } from '@agentest/report';
import type { CaseChange, Category, Comparison } from '../comparison.js';
import {
  CATEGORY_ICONS,
  CATEGORY_LABELS,
  VERDICT_TITLES,
  countsText,
  detectionText,
  evidenceText,
  metricText,
  passRateText,
  sideSummary,
  sideText,
} from './describe.js';

type Format = Parameters<typeof styleText>[0];

const CATEGORY_COLOURS: Partial<Record<Category, Format>> = {
  regressed: 'red',
  fixed: 'green',
  still_failing: 'yellow',
  new: 'cyan',
  removed: 'gray',
  skipped: 'gray',
};
const VERDICT_COLOURS: Record<Comparison['verdict']['verdict'], Format> = {
  regressed: 'red',
  improved: 'green',
  no_significant_change: 'green',
};
const MAX_ID = 32;
const MAX_SIDE = 28;
const MAX_EVIDENCE = 100;

/**
 * The terminal view: both reports, a table of every case that did not simply keep passing (those
 * are counted), then the verdict and the reason for it, the pass rate, the metrics and the notes.
 */
export function renderConsole(comparison: Comparison, options: { colour?: boolean } = {}): string {
  const paint = (format: Format, text: string) =>
    options.colour && text ? styleText(format, text, { validateStream: false }) : text;
  const lines = [
    '',
    paint('bold', 'agentest compare'),
    `  base  ${sideSummary(comparison.base)}`,
    `  head  ${sideSummary(comparison.head)}`,
    '',
  ];
  const shown = comparison.cases.filter((c) => c.category !== 'still_passing');
  if (shown.length) lines.push(...caseTable(shown, paint), '');
  lines.push(`  ${countsText(comparison)}`, '');
  const { verdict } = comparison;
  lines.push(
    `  ${paint('bold', 'Verdict:')} ${paint(VERDICT_COLOURS[verdict.verdict], VERDICT_TITLES[verdict.verdict])} — ${verdict.reason}`,
  );
  lines.push(`  ${passRateText(comparison)}`);
  for (const metric of comparison.metrics) lines.push(`  ${metricText(metric)}`);
  for (const line of detectionText(comparison)) lines.push(`  ${line}`);
  for (const note of comparison.notes) lines.push(`  ${paint('yellow', 'note:')} ${note}`);
  return `${lines.join('\n')}\n`;
}

function caseTable(cases: readonly CaseChange[], paint: (format: Format, text: string) => string): string[] {
  const rows = cases.map((c) => [
    clipMiddle(c.id, MAX_ID),
    `${CATEGORY_ICONS[c.category]} ${CATEGORY_LABELS[c.category]}`,
    clip(sideText(c.base), MAX_SIDE),
    clip(sideText(c.head), MAX_SIDE),
    clip(oneLine(evidenceText(c)), MAX_EVIDENCE),
  ]);
  const header = ['Case', 'Change', 'Base', 'Head', 'Evidence'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => displayWidth(r[i]!))));
  const line = (cells: string[]) =>
    `  ${cells.map((cell, i) => (i === cells.length - 1 ? cell : pad(cell, widths[i]!))).join('  ')}`.trimEnd();
  return [
    paint('dim', line(header)),
    ...rows.map((row, i) => {
      const colour = CATEGORY_COLOURS[cases[i]!.category];
      const cells = [...row];
      if (colour) cells[1] = paint(colour, pad(row[1]!, widths[1]!));
      return line(cells);
    }),
  ];
}

function pad(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - displayWidth(text)));
}

/** The longest start of `chars` that fits in `columns` terminal columns (CJK and emoji take two). */
function fitting(chars: readonly string[], columns: number): string[] {
  const kept: string[] = [];
  let width = 0;
  for (const char of chars) {
    width += displayWidth(char);
    if (width > columns) break;
    kept.push(char);
  }
  return kept;
}

function clip(text: string, max: number): string {
  return displayWidth(text) <= max ? text : `${fitting([...text], max - 1).join('')}…`;
}

/** Ids are often paths with the telling part at the end (`…/advanced.test.ts#refund flow`). */
function clipMiddle(text: string, max: number): string {
  if (displayWidth(text) <= max) return text;
  const head = fitting([...text], Math.floor((max - 1) / 3));
  const tail = fitting([...text].reverse(), max - 1 - displayWidth(head.join(''))).reverse();
  return `${head.join('')}…${tail.join('')}`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
