import {
  defineReporter,
  type AgentestPlugin,
  type CaseStartEvent,
  type DeepReadonly,
  type RunPlan,
  type RunResultEvent,
} from '@agentest/kernel';
import { printAgentHeader, printAgentResult } from './agent-layout.js';
import { FailureRecap } from './failure-recap.js';
import { KitLayout, kitStatus } from './kit-layout.js';
import { Printer } from './printer.js';
import { Progress } from './progress.js';
import { quietSink } from './quiet-sink.js';
import { printScriptHeader, printScriptResult, printScriptSummary } from './script-layout.js';
import { colourWanted, createStyle } from './style.js';
import { printSummary } from './summary-block.js';

export interface ConsoleReporterOptions {
  /** Where to print; defaults to stdout. Tests pass a stream to capture the output. */
  stream?: NodeJS.WritableStream & { isTTY?: boolean };
  /** Force colour on or off; by default on for a TTY unless `NO_COLOR` is set. */
  color?: boolean;
  /** Show the live progress line; by default only on a TTY. */
  progress?: boolean;
  /** Print each case's output (`-v`); the run plan's `verbose` also turns it on. */
  verbose?: boolean;
  /** Files this run writes, listed under the summary as `Output: <path>`. */
  outputs?: string[];
  /** Accepted for symmetry with file reporters; the console writes no file. */
  output?: string;
  cwd?: string;
}

/**
 * The terminal reporter: Yao's `Agent Test` layout for agent suites, the seed's `Script Test` layout
 * for script suites, agentest-kit's badge layout for kit suites (`start.meta.mode === 'kit'`), a live
 * progress line on a TTY, and plain text for pipes and `NO_COLOR`.
 */
export default function consoleReporter(options: ConsoleReporterOptions = {}): AgentestPlugin {
  const out = options.stream ?? process.stdout;
  const tty = (out as { isTTY?: boolean }).isTTY === true;
  const style = createStyle(options.color ?? colourWanted(out));
  const sink = quietSink(out);
  const progress = new Progress(sink, style, options.progress ?? tty);
  const p = new Printer(sink, style, progress);
  const outputs = options.outputs ?? [];
  let plan: RunPlan | undefined;
  let script = false;
  let kit: KitLayout | undefined;
  let recap = new FailureRecap();
  const verbose = () => options.verbose ?? plan?.verbose ?? false;

  const reporter = defineReporter({
    name: 'console',
    onStart(start) {
      script = start.kind === 'script';
      kit = start.meta?.mode === 'kit' ? new KitLayout(p) : undefined;
      recap = new FailureRecap();
      progress.begin(start.total_cases, start.runs_per_case);
      if (kit) kit.header(start);
      else if (script) printScriptHeader(p, start);
      else printAgentHeader(p, start, plan);
    },
    // Only a drawn progress line needs to hear of each run (every event a reporter takes costs a call).
    ...(progress.enabled
      ? {
          onCaseStart(event: DeepReadonly<CaseStartEvent>) {
            progress.caseStarted(event.id);
          },
          onRunResult(event: DeepReadonly<RunResultEvent>) {
            progress.runFinished(event.execution.status !== 'passed');
            p.refreshProgress();
          },
        }
      : {}),
    onResult(result) {
      progress.record(
        kit ? kitStatus(result) === 'FAIL' : !['passed', 'skipped'].includes(result.status),
        result.id,
        result.runs.length,
      );
      if (kit) kit.result(result);
      else {
        recap.record(result);
        if (script) printScriptResult(p, result, verbose());
        else printAgentResult(p, result, verbose());
      }
    },
    onSummary(summary) {
      progress.finish();
      if (kit) kit.summary(summary, outputs);
      else {
        recap.print(p);
        if (script) printScriptSummary(p, summary, outputs);
        else printSummary(p, summary, outputs);
      }
      p.flush();
    },
    close() {
      p.flush();
      progress.clear();
    },
  });
  return {
    ...reporter,
    apply(kernel) {
      kernel.hooks.setup.tap(reporter.name, (runPlan) => void (plan = runPlan));
      reporter.apply(kernel);
    },
  };
}

export { colourWanted } from './style.js';
export { terminalSafe } from './terminal-safe.js';
export { displayWidth } from './display-width.js';
export {
  colorStatus,
  formatCaseDetail,
  formatCaseLine,
  formatKitMetric,
  formatMetrics,
  formatShipVerdict,
  formatStatusCounts,
  formatSuiteFooter,
  formatSuiteHeader,
  formatSummary,
  kitIdWidth,
  kitMetricLabel,
  kitMetricValue,
  kitPaint,
} from './kit-format.js';
export type { KitMetrics, KitRow, KitStatus, KitStyle, KitVerdict } from './kit-format.js';
