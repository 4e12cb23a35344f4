import type { DeepReadonly, Execution, ResultEvent, RunPlan, StartEvent, SummaryEvent } from '@agentest/kernel';
import { goDuration } from '@agentest/common';
import {
  printLogLines,
  runGrade,
  shardNote,
  terminalSafe as safe,
  type ConsoleLayout,
  type LayoutContext,
  type LayoutPrinter as Printer,
  caseLogs,
  formatDuration,
  varianceLine,
} from '@agentest/report';
import { printConversation } from './conversation-lines.js';
import { printSummary } from './summary-block.js';
import { compact, heavyRule, inputText, lightRule, STATUS_COLOUR, STATUS_WORD, truncate } from './text.js';

type Result = DeepReadonly<ResultEvent>;
type Run = DeepReadonly<Execution>;

/** Yao's `Agent Test` layout: the console's own, for agent suites and any kind no plugin lays out. */
export class AgentLayout implements ConsoleLayout {
  constructor(private readonly context: LayoutContext) {}

  header(start: DeepReadonly<StartEvent>): void {
    printAgentHeader(this.context.printer, start, this.context.plan);
  }

  result(result: Result): void {
    printAgentResult(this.context.printer, result, this.context.verbose);
  }

  summary(summary: DeepReadonly<SummaryEvent>): void {
    printSummary(this.context.printer, summary, this.context.outputs);
  }
}

/** The `Agent Test` header with its `ℹ` info lines (Yao's terminal layout). */
export function printAgentHeader(p: Printer, start: DeepReadonly<StartEvent>, plan: RunPlan | undefined): void {
  const info = (text: string) => p.line(`${p.paint('cyan', 'ℹ')} ${text}`);
  p.lines(['', p.paint('bold', heavyRule), p.paint('bold', '  Agent Test'), p.paint('bold', heavyRule)]);
  info(`Agent: ${safe(start.agent_id)}`);
  if (start.connector) info(`Connector: ${safe(start.connector)}${plan?.agent?.connector ? ' (override)' : ''}`);
  const cases = `${start.total_cases} test case${start.total_cases === 1 ? '' : 's'}`;
  if (plan?.filter) {
    info(`Input: ${safe(start.suite)}`);
    info(`Filter: "${safe(plan.filter.source)}" (${cases} match)`);
  } else info(`Input: ${safe(start.suite)} (${cases})`);
  const shard = shardNote(start);
  if (shard) info(`Shard: ${safe(shard)}`);
  if (plan?.env.ctxFile) info(`Context: ${safe(plan.env.ctxFile)}`);
  if (start.runs_per_case > 1) info(`Runs: ${start.runs_per_case} per test case (stability analysis)`);
  info(`Timeout: ${plan?.timeoutMs ? goDuration(plan.timeoutMs) : '5m0s'}`);
  info(`Parallel: ${start.parallel}`);
  if (start.hook_logs?.before_all.length) {
    info('BeforeAll output:');
    printLogLines(p, start.hook_logs.before_all, '  ');
  }
  p.lines([lightRule, '  Running Tests', lightRule].map((t) => p.paint('dim', t)));
}

/** One finished case: `► [ID] <input>  PASSED (234ms)` and its details; all runs when `--runs` > 1. */
export function printAgentResult(p: Printer, result: Result, verbose: boolean): void {
  const head = `${p.paint('cyan', '►')} ${p.paint('bold', `[${safe(result.id)}]`)} ${safe(truncate(inputText(result.input), 50))}`;
  if (result.status === 'skipped') {
    p.line(
      `${head}  ${p.paint(result.todo ? 'cyan' : 'gray', result.todo ? 'TODO' : 'SKIPPED')}${result.skip_reason ? p.paint('dim', ` (${safe(result.skip_reason)})`) : ''}`,
    );
    return;
  }
  if (!result.stability) {
    const run = result.runs[0];
    p.line(`${head}  ${statusText(p, result.status, result.duration_ms, run)}`);
    printDetails(p, result.error, run?.output ?? result.output, verbose, '  ');
    printWarnings(p, result);
    printConversation(p, result, verbose, '  ');
    if (result.variance) p.line(p.paint('dim', `  ${varianceLine(result.variance)}`));
    if (verbose) printLogLines(p, caseLogs(result), '  ');
    return;
  }
  p.line(head);
  for (const run of result.runs) {
    p.line(`  Run ${run.run}: ${statusText(p, run.status, run.duration_ms, run)}`);
    printDetails(p, run.error, run.output, verbose, '    ');
    printConversation(p, run, verbose, '    ');
  }
  const s = result.stability;
  const colour = s.stable ? 'green' : s.pass_rate >= 80 ? 'yellow' : 'red';
  const line = `[${safe(result.id)}] ${Math.round(s.pass_rate)}% (${s.passed}/${s.runs}) ${className(s.stability_class)} avg:${formatDuration(s.avg_duration_ms)}`;
  p.line(`  ${p.paint(colour, line)}${p.paint('dim', ` · 95% CI ${s.pass_rate_ci[0]}–${s.pass_rate_ci[1]}%`)}`);
  const policy = result.run_policy;
  if (policy) p.line(p.paint('dim', `  ${policy.runs} of at most ${policy.max} runs: ${safe(policy.reason ?? '')}`));
  if (result.variance) p.line(p.paint('dim', `  ${varianceLine(result.variance)}`));
  printWarnings(p, result);
  if (verbose) printLogLines(p, caseLogs(result), '  ');
}

/** What did not change the case's verdict but should be seen: no assertion, a failed After hook. */
function printWarnings(p: Printer, result: Result): void {
  for (const warning of result.warnings ?? []) p.line(`  ${p.paint('yellow', `⚠ ${safe(warning)}`)}`);
}

function statusText(p: Printer, status: Result['status'], durationMs: number, run?: Run): string {
  const grade = run && runGrade(run);
  const shownGrade =
    grade && !STATUS_WORD[status].startsWith(grade.toUpperCase()) ? p.paint('yellow', ` [${safe(grade)}]`) : '';
  return `${p.paint(['bold', STATUS_COLOUR[status]], STATUS_WORD[status])}${shownGrade} ${p.paint('dim', `(${formatDuration(durationMs)})`)}`;
}

function printDetails(p: Printer, error: string | undefined, output: unknown, verbose: boolean, indent: string): void {
  if (error) p.line(`${indent}${p.paint('red', `└─ ${safe(error)}`)}`);
  if (verbose && output !== undefined)
    p.line(`${indent}${p.paint('dim', `└─ Output: ${safe(truncate(compact(output), 100))}`)}`);
}

export function className(stabilityClass: string): string {
  return stabilityClass
    .split('_')
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join(' ');
}
