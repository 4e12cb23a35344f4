import {
  caseLogs,
  formatDuration,
  type DeepReadonly,
  type ResultEvent,
  type StartEvent,
  type SummaryEvent,
} from '@agentest/kernel';
import { representative, scriptSuiteInfo } from '@agentest/report';
import { printLogLines } from './agent-layout.js';
import type { Printer } from './printer.js';
import { terminalSafe as safe } from './terminal-safe.js';
import { compact, heavyRule, interruptedText, lightRule, STATUS_COLOUR, STATUS_WORD } from './text.js';

type Result = DeepReadonly<ResultEvent>;

/** The seed's "Script Test Output" header: `Script Test: scripts.expense.setup` and its info lines. */
export function printScriptHeader(p: Printer, start: DeepReadonly<StartEvent>): void {
  const { script, script_path: path } = scriptSuiteInfo(start);
  p.lines([
    '',
    p.paint('bold', heavyRule),
    p.paint('bold', `  Script Test: ${safe(script)}`),
    p.paint('bold', heavyRule),
  ]);
  if (path) p.line(`  Script: ${safe(path)}`);
  p.line(`  Tests: ${start.total_cases} function${start.total_cases === 1 ? '' : 's'}`);
  p.line(`  User: ${safe(start.environment.user_id)}`);
  p.line(`  Team: ${safe(start.environment.team_id)}`);
  p.lines([lightRule, '  Running Tests', lightRule].map((t) => p.paint('dim', t)));
}

/** `► [TestX] ...` then `✓ PASSED (12ms)` or `✗ FAILED` with the assertion's expected and actual values. */
export function printScriptResult(p: Printer, result: Result, verbose: boolean): void {
  const run = representative(result);
  const mark = result.status === 'passed' ? '✓' : result.status === 'skipped' ? '○' : '✗';
  p.line(`${p.paint('cyan', '►')} ${p.paint('bold', `[${safe(result.name ?? result.id)}]`)} ...`);
  p.line(
    `  ${p.paint(['bold', STATUS_COLOUR[result.status]], `${mark} ${STATUS_WORD[result.status]}`)} ${p.paint('dim', `(${formatDuration(result.duration_ms)})`)}`,
  );
  const reason = result.error ?? result.skip_reason;
  if (reason) p.line(`    ${p.paint(result.status === 'skipped' ? 'gray' : 'red', `└─ ${safe(reason)}`)}`);
  const assertion = run?.details?.assertion as { expected?: unknown; actual?: unknown } | undefined;
  if (assertion && result.status !== 'passed') {
    if ('expected' in assertion) p.line(`       expected: ${safe(compact(assertion.expected))}`);
    if ('actual' in assertion) p.line(`       actual: ${safe(compact(assertion.actual))}`);
  }
  if (verbose) printLogLines(p, caseLogs(result), '    ');
  p.line();
}

/** `Summary: 2 passed, 1 failed, 0 skipped (35ms)` between heavy rules. */
export function printScriptSummary(p: Printer, summary: DeepReadonly<SummaryEvent>, outputs: readonly string[]): void {
  const extra = [
    summary.errors ? `${summary.errors} error${summary.errors === 1 ? '' : 's'}` : '',
    summary.timeouts ? `${summary.timeouts} timeout${summary.timeouts === 1 ? '' : 's'}` : '',
  ]
    .filter(Boolean)
    .map((t) => `, ${t}`)
    .join('');
  const text = `  Summary: ${summary.passed} passed, ${summary.failed} failed${extra}, ${summary.skipped} skipped (${formatDuration(summary.duration_ms)})`;
  const bad = summary.failed + summary.errors + summary.timeouts > 0;
  p.lines([p.paint('bold', heavyRule), p.paint(['bold', bad ? 'red' : 'green'], text)]);
  if (summary.interrupted) p.line(p.paint('yellow', interruptedText(summary)));
  for (const output of outputs) p.line(`  Output: ${safe(output)}`);
  p.line(p.paint('bold', heavyRule));
}
