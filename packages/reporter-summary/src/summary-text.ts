import {
  caseLabel,
  failureMessage,
  interruptionNote,
  haltNote,
  usageText,
  formatDuration,
  formatPercent,
  isFailure,
  oneLine,
  statusIcon,
  truncate,
  type Report,
} from '@agentest/report';

/** How many failing and unstable cases the brief summary names before it only counts the rest. */
const LISTED = 20;

/**
 * The brief text summary (the seed's `report.summary`): the outcome in a few lines, then the cases
 * that need attention. Plain text, for a terminal, an e-mail or a chat message.
 */
export function renderSummaryText(report: Report): string {
  const { summary, metadata } = report;
  const lines = [metadata.kind === 'script' ? 'Script Test Summary' : 'Agent Test Summary', ''];
  const field = (label: string, value: string) => lines.push(`${`${label}:`.padEnd(11)}${value}`);
  if (metadata.kind === 'script') field('Script', metadata.script ?? summary.agent_id);
  else field('Agent', summary.connector ? `${summary.agent_id} (${summary.connector})` : summary.agent_id);
  field('Input', metadata.input_file);
  const executed = summary.total - summary.skipped;
  field(
    'Result',
    `${outcome(report)}: ${summary.passed} of ${executed} passed (${formatPercent(summary.overall_pass_rate)} of runs) in ${formatDuration(summary.duration_ms)}`,
  );
  const counts = [
    [summary.failed, 'failed'],
    [summary.errors, 'errors'],
    [summary.timeouts, 'timeouts'],
    [summary.skipped, 'skipped'],
  ] as const;
  const nonZero = counts.filter(([n]) => n > 0).map(([n, label]) => `${n} ${label}`);
  const interrupted = interruptionNote(summary);
  if (interrupted) nonZero.push(interrupted);
  const halted = haltNote(summary);
  if (halted) nonZero.push(halted);
  if (nonZero.length) lines.push(`${' '.repeat(11)}${nonZero.join(' · ')}`);
  const usage = usageText(summary.usage);
  if (usage) field('Usage', usage);
  if (summary.runs_per_case > 1)
    field(
      'Stability',
      `${summary.stable_cases ?? 0} stable, ${summary.unstable_cases ?? 0} unstable (${summary.runs_per_case} runs per case)`,
    );
  if (summary.flaky?.length)
    field(
      'Flaky',
      `${summary.flaky.length} (${truncate(summary.flaky.map((f) => `${f.id} ${Math.round(f.flip_rate * 100)}% flips`).join(', '), 200)})`,
    );
  if (summary.verdict) {
    field('Verdict', summary.verdict.can_ship ? 'SHIP IT' : 'DO NOT SHIP');
    for (const issue of summary.verdict.issues) lines.push(`${' '.repeat(11)}- ${issue}`);
  }
  if (summary.comparison) {
    const { baseline, verdict, reason, regressed = [], fixed = [] } = summary.comparison;
    field('Baseline', `${verdict.replace(/_/g, ' ').toUpperCase()} against ${baseline}: ${oneLine(reason)}`);
    if (regressed.length || fixed.length)
      lines.push(
        `${' '.repeat(11)}${regressed.length} regressed${regressed.length ? ` (${truncate(regressed.join(', '), 200)})` : ''} · ${fixed.length} fixed`,
      );
  }

  lines.push(...hookOutput(summary), ...failureLines(report), ...unstableLines(report));
  return `${lines.join('\n')}\n`;
}

/** What the global BeforeAll and AfterAll hooks printed, the first lines of each. */
function hookOutput(summary: Report['summary']): string[] {
  const lines: string[] = [];
  for (const [title, output] of [
    ['BeforeAll output', summary.hook_logs?.before_all],
    ['AfterAll output', summary.hook_logs?.after_all],
  ] as const) {
    if (!output?.length) continue;
    lines.push('', `${title}:`, ...output.slice(0, LISTED).map((line) => `  ${line}`));
    if (output.length > LISTED) lines.push(`  … and ${output.length - LISTED} more lines`);
  }
  return lines;
}

/** The failing cases, one line each: label, status and the reason. */
function failureLines(report: Report): string[] {
  const lines: string[] = [];
  const failures = report.results.filter((r) => isFailure(r.status));
  if (failures.length) {
    lines.push('', `Failures (${failures.length}):`);
    const width = Math.min(30, Math.max(...failures.slice(0, LISTED).map((r) => caseLabel(r).length)));
    for (const r of failures.slice(0, LISTED)) {
      lines.push(
        `  ${statusIcon(r.status)} ${oneLine(caseLabel(r)).padEnd(width)}  ${r.status.padEnd(7)}  ${truncate(oneLine(failureMessage(r)), 120)}`,
      );
    }
    if (failures.length > LISTED) lines.push(`  … and ${failures.length - LISTED} more`);
  }
  return lines;
}

/** The cases whose runs disagreed, with their pass rate. */
function unstableLines(report: Report): string[] {
  const lines: string[] = [];
  const unstable = report.results.filter((r) => r.stability && !r.stability.stable);
  if (unstable.length) {
    lines.push('', `Unstable cases (${unstable.length}):`);
    for (const r of unstable.slice(0, LISTED)) {
      const s = r.stability!;
      lines.push(
        `  ${oneLine(caseLabel(r))}  ${formatPercent(s.pass_rate)} (${s.passed}/${s.runs}) ${s.stability_class}`,
      );
    }
    if (unstable.length > LISTED) lines.push(`  … and ${unstable.length - LISTED} more`);
  }
  return lines;
}

function outcome({ summary }: Report): string {
  if (summary.interrupted) return 'INTERRUPTED';
  const failed = summary.failed + summary.errors + summary.timeouts > 0 || summary.verdict?.can_ship === false;
  return failed ? 'FAILED' : 'PASSED';
}
