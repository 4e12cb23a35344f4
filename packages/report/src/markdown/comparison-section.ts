import type { BaselineComparison, DeepReadonly } from '@agentest/kernel';
import { code, inline } from './syntax.js';

const TITLES = {
  regressed: '❌ REGRESSED',
  improved: '✅ IMPROVED',
  no_significant_change: '✅ NO SIGNIFICANT CHANGE',
  not_comparable: '⚠️ NOT COMPARABLE',
} as const;
/** Ids listed per group; the rest are counted. */
const MAX_IDS = 50;

/** `--baseline`: the run compared with the baseline report (see docs/compare.md). */
export function comparisonSection(comparison: DeepReadonly<BaselineComparison> | undefined): string {
  if (!comparison) return '';
  const lines = [
    `## Compared with ${code(comparison.baseline)}`,
    '',
    `**${TITLES[comparison.verdict]}**: ${inline(comparison.reason)}`,
  ];
  const difference = comparison.pass_rate_difference;
  if (difference)
    lines.push(
      '',
      `Pass rate change: ${points(difference.estimate)} points (interval ${points(difference.lower)} to ${points(difference.upper)}).`,
    );
  for (const [label, ids] of [
    ['Regressed', comparison.regressed],
    ['Fixed', comparison.fixed],
  ] as const) {
    if (ids?.length)
      lines.push(
        '',
        `${label} (${ids.length}): ${ids
          .slice(0, MAX_IDS)
          .map((id) => code(id))
          .join(', ')}${ids.length > MAX_IDS ? `, and ${ids.length - MAX_IDS} more` : ''}`,
      );
  }
  if (comparison.flagged?.length) {
    lines.push(
      '',
      `Significantly changed after Holm's correction: ${comparison.flagged.map((f) => `${code(f.id)} (${f.flag}, p = ${Number(f.adjusted_p.toPrecision(2))})`).join(', ')}`,
    );
  }
  return lines.join('\n');
}

function points(fraction: number): string {
  const value = Math.round(fraction * 1000) / 10;
  return `${value > 0 ? '+' : value < 0 ? '−' : ''}${Math.abs(value).toFixed(1)}`;
}
