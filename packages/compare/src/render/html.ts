import { createHash } from 'node:crypto';
import type { CaseChange, Category, Comparison } from '../comparison.js';
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

const CSS = `
:root { color-scheme: light dark; --bad: #c62828; --good: #2e7d32; --warn: #b26a00; --muted: #777; --line: #8884; }
body { font: 14px/1.45 system-ui, sans-serif; margin: 2rem auto; max-width: 72rem; padding: 0 1rem; }
h1 { font-size: 1.4rem; margin-bottom: .25rem; } h2 { font-size: 1.1rem; margin-top: 2rem; }
.verdict { font-weight: 700; padding: .1rem .5rem; border-radius: .3rem; color: #fff; }
.verdict.regressed { background: var(--bad); } .verdict.improved, .verdict.no_significant_change { background: var(--good); }
table { border-collapse: collapse; width: 100%; } th, td { text-align: left; vertical-align: top; padding: .35rem .5rem; border-bottom: 1px solid var(--line); }
th { font-weight: 600; } td.id { font-family: ui-monospace, monospace; word-break: break-all; }
tr.regressed td.change { color: var(--bad); font-weight: 600; } tr.fixed td.change { color: var(--good); font-weight: 600; }
tr.still_failing td.change { color: var(--warn); } tr.still_passing, tr.removed, tr.skipped { color: var(--muted); }
.flag { font-weight: 600; } details summary { cursor: pointer; } pre { white-space: pre-wrap; margin: .25rem 0; font-size: 12px; }
.muted { color: var(--muted); }
`;

/**
 * The comparison as one self-contained page: no script and nothing fetched, under a policy that
 * allows only its own stylesheet, so a hostile case id or message cannot run anything.
 */
export function renderHtml(comparison: Comparison): string {
  const csp = `default-src 'none'; style-src 'sha256-${createHash('sha256').update(CSS).digest('base64')}'; base-uri 'none'; form-action 'none'`;
  const { verdict } = comparison;
  const changed = comparison.cases.filter((c) => c.category !== 'still_passing');
  const passing = comparison.cases.filter((c) => c.category === 'still_passing');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>agentest compare: ${VERDICT_TITLES[verdict.verdict]}</title>
<style>${CSS}</style>
</head>
<body>
<h1>agentest compare <span class="verdict ${verdict.verdict}">${VERDICT_TITLES[verdict.verdict]}</span></h1>
<p><strong>${escape(verdict.reason)}</strong></p>
<p>${escape(passRateText(comparison))}. ${escape(countsText(comparison))}.</p>
<table><tbody>
<tr><th>base</th><td>${escape(sideSummary(comparison.base))}</td></tr>
<tr><th>head</th><td>${escape(sideSummary(comparison.head))}</td></tr>
</tbody></table>
${metricsTable(comparison)}${paragraphs('Sample size', detectionText(comparison))}${paragraphs('Notes', comparison.notes)}
<h2>Changed cases (${changed.length})</h2>
${changed.length ? caseTable(changed) : '<p class="muted">No case changed.</p>'}
${passing.length ? `<details><summary>Still passing (${passing.length})</summary>${caseTable(passing)}</details>` : ''}
<p class="muted">Verdict by ${verdict.method === 'mcnemar' ? 'the exact McNemar test on the cases that changed (one run per side)' : `a two-level paired bootstrap (${verdict.difference.resamples} resamples, margin ${verdict.margin})`}; per-case flags by Fisher's exact test with Holm's correction; α ${verdict.alpha}.</p>
</body>
</html>
`;
}

function metricsTable(comparison: Comparison): string {
  if (!comparison.metrics.length) return '';
  const rows = comparison.metrics.map(
    (m) =>
      `<tr><td>${metricName(m.metric)}</td><td>${escape(metricValue(m.metric, m.baseMedian))}</td><td>${escape(metricValue(m.metric, m.headMedian))}</td><td>${escape(metricChangeText(m))}</td><td>${escape(metricIntervalText(m))}</td><td>${m.change === 'none' ? 'no clear change' : m.change === 'up' ? 'higher' : 'lower'}</td></tr>`,
  );
  return `<h2>Medians</h2>\n<table><thead><tr><th></th><th>base</th><th>head</th><th>change</th><th>interval</th><th></th></tr></thead><tbody>\n${rows.join('\n')}\n</tbody></table>\n`;
}

function paragraphs(title: string, lines: readonly string[]): string {
  return lines.length ? `<h2>${title}</h2>\n${lines.map((l) => `<p>${escape(l)}</p>`).join('\n')}\n` : '';
}

function caseTable(cases: readonly CaseChange[]): string {
  const rows = cases.map((c) => {
    const flag = c.test?.flag ? ` <span class="flag">(significantly ${c.test.flag})</span>` : '';
    return `<tr class="${c.category}"><td class="id">${escape(c.id)}${c.name ? `<br><span class="muted">${escape(c.name)}</span>` : ''}</td><td class="change">${label(c.category)}${flag}</td><td>${escape(sideText(c.base))}</td><td>${escape(sideText(c.head))}</td><td>${evidence(c)}</td></tr>`;
  });
  return `<table><thead><tr><th>Case</th><th>Change</th><th>Base</th><th>Head</th><th>Evidence</th></tr></thead><tbody>\n${rows.join('\n')}\n</tbody></table>`;
}

/** The short reason inline, and every message of both sides behind a disclosure. */
function evidence(change: CaseChange): string {
  const summary = evidenceText(change);
  const all = [
    ...(change.base?.messages ?? []).map((m) => `base: ${m}`),
    ...(change.head?.messages ?? []).map((m) => `head: ${m}`),
  ];
  if (all.length <= 1) return escape(summary);
  return `<details><summary>${escape(summary)}</summary>${all.map((m) => `<pre>${escape(m)}</pre>`).join('')}</details>`;
}

function label(category: Category): string {
  return CATEGORY_LABELS[category];
}

function escape(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}
