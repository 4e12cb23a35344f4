import type { DeepReadonly, KernelApi, ResultEvent, StartEvent, SummaryEvent } from '@agentest/kernel';
import {
  compactValue as compact,
  getConsoleHooks,
  heavyRule,
  interruptedText,
  lightRule,
  printLogLines,
  representative,
  scriptSuiteInfo,
  shardNote,
  STATUS_COLOUR,
  STATUS_WORD,
  terminalSafe as safe,
  type ConsoleLayout,
  type LayoutContext,
  type LayoutPrinter as Printer,
  caseLogs,
  formatDuration,
  hasRobustness,
  robustnessLine,
} from '@agentest/report';

type Result = DeepReadonly<ResultEvent>;

/** Registers the `Script Test` layout with the console reporter, for script suites. */
export function registerScriptLayout(kernel: Pick<KernelApi, 'hooks'>, pluginName: string): void {
  getConsoleHooks(kernel)
    .layout.for('script')
    .tap(pluginName, (context) => new ScriptLayout(context));
}

/** The seed's "Script Test Output": a header naming the script, a block per test function, one summary line. */
export class ScriptLayout implements ConsoleLayout {
  constructor(private readonly context: LayoutContext) {}

  header(start: DeepReadonly<StartEvent>): void {
    printScriptHeader(this.context.printer, start);
  }

  result(result: Result): void {
    printScriptResult(this.context.printer, result, this.context.verbose);
  }

  summary(summary: DeepReadonly<SummaryEvent>): void {
    printScriptSummary(this.context.printer, summary, this.context.outputs);
  }
}

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
  const shard = shardNote(start);
  if (shard) p.line(`  Shard: ${safe(shard)}`);
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

/**
 * `Summary: 2 passed, 1 failed, 0 skipped (35ms)` between heavy rules. As in the seed and Yao, a test
 * that threw or timed out counts as failed, so the three counts add up to the total; the kinds follow
 * in brackets: `3 failed (1 error, 1 timeout)`.
 */
export function printScriptSummary(p: Printer, summary: DeepReadonly<SummaryEvent>, outputs: readonly string[]): void {
  const kinds = [
    summary.errors ? `${summary.errors} error${summary.errors === 1 ? '' : 's'}` : '',
    summary.timeouts ? `${summary.timeouts} timeout${summary.timeouts === 1 ? '' : 's'}` : '',
  ].filter(Boolean);
  const failed = summary.failed + summary.errors + summary.timeouts;
  const detail = kinds.length ? ` (${kinds.join(', ')})` : '';
  const text = `  Summary: ${summary.passed} passed, ${failed} failed${detail}, ${summary.skipped} skipped (${formatDuration(summary.duration_ms)})`;
  const bad = failed > 0;
  p.lines([p.paint('bold', heavyRule), p.paint(['bold', bad ? 'red' : 'green'], text)]);
  if (summary.interrupted) p.line(p.paint('yellow', interruptedText(summary)));
  // `--fuzz` has no message to perturb in a test function: say so rather than fuzz nothing in silence.
  if (hasRobustness(summary)) {
    const reasons = [...new Set((summary.not_fuzzed ?? []).map((n) => n.reason))].join('; ');
    p.line(p.paint('yellow', `  Robustness (--fuzz): ${robustnessLine(summary)}${reasons ? ` (${reasons})` : ''}`));
  }
  for (const output of outputs) p.line(`  Output: ${safe(output)}`);
  p.line(p.paint('bold', heavyRule));
}
