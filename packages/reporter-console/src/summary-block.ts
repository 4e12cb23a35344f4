import type { DeepReadonly, SummaryEvent } from '@agentest/kernel';
import { formatBound, formatMetric, metricRows, formatDuration } from '@agentest/report';
import type { LayoutPrinter as Printer } from '@agentest/report';
import { haltNote, printFlaky, printLogLines, terminalSafe as safe, unassertedNote, usageText } from '@agentest/report';
import { printRobustness } from './conversation-lines.js';
import { heavyRule, interruptedText, lightRule, metricLabel } from './text.js';

type Summary = DeepReadonly<SummaryEvent>;

/** Yao's summary block, the stability block, metrics with their thresholds, the verdict and the banner. */
export function printSummary(p: Printer, s: Summary, outputs: readonly string[]): void {
  // With several runs per case the run pass rate and the metrics' case pass rate differ: name them apart.
  const width = s.runs_per_case > 1 ? 15 : 11;
  const row = (label: string, value: string | number) => p.line(`  ${`${label}:`.padEnd(width)}${value}`);
  p.lines([lightRule, '  Summary', lightRule].map((t) => p.paint('dim', t)));
  row('Agent', safe(s.agent_id));
  if (s.connector) row('Connector', safe(s.connector));
  row('Total', s.total);
  row('Passed', p.paint('green', String(s.passed)));
  row('Failed', s.failed ? p.paint('red', String(s.failed)) : '0');
  if (s.skipped) row('Skipped', s.skipped);
  if (s.errors) row('Errors', p.paint('red', String(s.errors)));
  if (s.timeouts) row('Timeouts', p.paint('yellow', String(s.timeouts)));
  row(s.runs_per_case > 1 ? 'Run Pass Rate' : 'Pass Rate', `${s.overall_pass_rate.toFixed(1)}%`);
  row('Duration', formatDuration(s.duration_ms));
  const usage = usageText(s.usage);
  if (usage) row('Usage', usage);
  const unasserted = unassertedNote(s);
  if (unasserted) p.line(p.paint('yellow', `  ⚠ ${unasserted}`));
  if (s.hook_logs?.after_all?.length) {
    p.line('  AfterAll output:');
    printLogLines(p, s.hook_logs.after_all, '  ');
  }
  if (s.runs_per_case > 1) printStability(p, s);
  printRobustness(p, s);
  printFlaky(p, s);
  if (hasMetrics(s)) printMetrics(p, s);
  if (s.interrupted) p.line(p.paint('yellow', interruptedText(s)));
  const halted = haltNote(s);
  if (halted) p.line(p.paint('yellow', `  ⚠ ${halted[0]!.toUpperCase()}${halted.slice(1)}`));
  for (const output of outputs) p.line(`  Output: ${safe(output)}`);
  printBanner(p, s);
}

function printStability(p: Printer, s: Summary): void {
  p.lines(['', p.paint('bold', '  Stability Analysis')]);
  p.line(`  Runs per case: ${s.runs_per_case}   Total runs: ${s.total_runs}`);
  p.line(`  Stable:    ${p.paint('green', String(s.stable_cases ?? 0))}`);
  p.line(`  Unstable:  ${s.unstable_cases ? p.paint('yellow', String(s.unstable_cases)) : '0'}`);
}

/** Metrics are worth a block when something beyond the pass rate was measured or judged. */
function hasMetrics(s: Summary): boolean {
  return Boolean(s.verdict) || Object.keys(s.metrics ?? {}).some((name) => name !== 'pass_rate');
}

function printMetrics(p: Printer, s: Summary): void {
  p.lines(['', p.paint('bold', '  Metrics'), p.paint('dim', `  ${'─'.repeat(50)}`)]);
  const rows = metricRows(s);
  const width = Math.max(...rows.map((row) => metricLabel(row.name).length));
  for (const { name, value, limit, met } of rows) {
    const label = safe(metricLabel(name)).padEnd(width);
    if (value === undefined) {
      // Not measured by this run: shown, but it does not decide the verdict (see the kernel's judge).
      p.line(p.paint('dim', `  –  ${label}  not measured  (threshold ${formatBound(name, limit!)})`));
      continue;
    }
    if (limit === undefined) {
      p.line(`  ${p.paint('dim', '·')}  ${label}  ${formatMetric(name, value)}`);
      continue;
    }
    p.line(
      `  ${met ? p.paint('green', '✓') : p.paint('red', '✗')}  ${label}  ${p.paint(met ? 'green' : 'red', formatMetric(name, value))}  ${p.paint('dim', `(threshold ${formatBound(name, limit)})`)}`,
    );
  }
  if (!s.verdict) return;
  p.line();
  if (s.verdict.can_ship) p.line(`  ${p.paint(['bold', 'bgGreen'], '  VERDICT: SHIP IT  ')}`);
  else {
    p.line(`  ${p.paint(['bold', 'bgRed'], '  VERDICT: DO NOT SHIP  ')}`);
    for (const issue of s.verdict.issues) p.line(p.paint('red', `  ✗ ${safe(issue)}`));
  }
}

function printBanner(p: Printer, s: Summary): void {
  const failed = s.failed + s.errors + s.timeouts > 0;
  const text = s.interrupted
    ? p.paint(['bold', 'yellow'], '  ⚠ RUN INTERRUPTED')
    : failed
      ? p.paint(['bold', 'red'], '  ❌ TESTS FAILED')
      : s.verdict && !s.verdict.can_ship
        ? p.paint(['bold', 'red'], '  ❌ DO NOT SHIP')
        : s.halted
          ? p.paint(['bold', 'yellow'], '  ⚠ STOPPED EARLY: NOT EVERY CASE RAN')
          : s.passed === 0 && s.skipped > 0
            ? p.paint(['bold', 'yellow'], '  ⚠ NO CASE RAN: EVERY SELECTED CASE WAS SKIPPED')
            : p.paint(['bold', 'green'], '  ✨ ALL TESTS PASSED ✨');
  p.lines([p.paint('bold', heavyRule), text, p.paint('bold', heavyRule)]);
}
