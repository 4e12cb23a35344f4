import {
  defineReporter,
  type AgentestPlugin,
  type CaseStartEvent,
  type DeepReadonly,
  type RunPlan,
  type RunResultEvent,
  type Reporter,
} from '@agentest/kernel';
import {
  getConsoleHooks,
  isFailure,
  layoutFor,
  suiteKindOf,
  type ConsoleHooks,
  type ConsoleLayout,
  type TextStream,
} from '@agentest/report';
import { AgentLayout } from './agent-layout.js';
import { FailureRecap } from './failure-recap.js';
import { Printer } from './printer.js';
import { Progress } from './progress.js';
import { quietSink } from './quiet-sink.js';
import { colourWanted, createStyle } from './style.js';

/** The plugin's name, and the reporter's in messages. */
export const PLUGIN_NAME = 'agentest:console';

export interface ConsoleReporterOptions {
  /** Where to print; defaults to stdout. Tests pass a stream to capture the output. */
  stream?: TextStream;
  /** Force colour on or off; by default on for a TTY unless `NO_COLOR` is set. */
  color?: boolean;
  /** Show the live progress line; by default only on a TTY. */
  progress?: boolean;
  /** Print each case's output (`-v`); the run plan's `verbose` also turns it on. */
  verbose?: boolean;
  /**
   * Which finished cases get their lines: `all` (default), or `failed`, only those that did not pass
   * (failed, errored, timed out), as `agentest merge` prints by default; the recap and summary are the same.
   */
  cases?: 'all' | 'failed';
  /** Files this run writes, listed under the summary as `Output: <path>`. */
  outputs?: string[];
  /** Accepted for symmetry with file reporters; the console writes no file. */
  output?: string;
  cwd?: string;
}

/**
 * The terminal reporter: a live progress line on a TTY, plain text for pipes and `NO_COLOR`, and each
 * suite printed by the layout its kind's plugin registered (`getConsoleHooks(kernel).layout`):
 * plugin-kit's badge layout for kit suites, plugin-script's `Script Test` layout for script suites,
 * and Yao's `Agent Test` layout for agent suites and any kind nobody lays out.
 */
export default function consoleReporter(options: ConsoleReporterOptions = {}): AgentestPlugin {
  const out = options.stream ?? process.stdout;
  const tty = (out as { isTTY?: boolean }).isTTY === true;
  const style = createStyle(options.color ?? colourWanted(out));
  const sink = quietSink(out);
  const progress = new Progress(sink, style, options.progress ?? tty);
  const p = new Printer(sink, style, progress);
  let plan: RunPlan | undefined;
  let hooks: ConsoleHooks | undefined;
  let layout: ConsoleLayout | undefined;
  let recap: FailureRecap | undefined;
  const onlyFailed = options.cases === 'failed';

  const reporter = defineReporter({
    name: PLUGIN_NAME,
    onStart(start) {
      const context = {
        printer: p,
        plan,
        verbose: options.verbose ?? plan?.verbose ?? false,
        outputs: options.outputs ?? [],
      };
      const chosen: ConsoleLayout =
        (hooks && layoutFor(hooks, suiteKindOf(start), context)) ?? new AgentLayout(context);
      layout = chosen;
      recap = chosen.recapsFailures === false ? undefined : new FailureRecap();
      progress.begin(start.total_cases, start.runs_per_case);
      chosen.header(start);
    },
    ...liveProgress(progress, p),
    onResult(result) {
      const failed = layout?.failed ? layout.failed(result) : isFailure(result.status);
      progress.record(failed, result.id, result.runs.length);
      recap?.record(result);
      if (failed || !onlyFailed) layout?.result(result);
    },
    onSummary(summary) {
      progress.finish();
      recap?.print(p);
      layout?.summary(summary);
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
      hooks = getConsoleHooks(kernel);
      kernel.hooks.setup.tap(reporter.name, (runPlan) => void (plan = runPlan));
      reporter.apply(kernel);
    },
  };
}

/** Only a drawn progress line needs to hear of each run (every event a reporter takes costs a call). */
function liveProgress(progress: Progress, p: Printer): Pick<Reporter, 'onCaseStart' | 'onRunResult'> {
  if (!progress.enabled) return {};
  return {
    onCaseStart(event: DeepReadonly<CaseStartEvent>) {
      progress.caseStarted(event.id);
    },
    onRunResult(event: DeepReadonly<RunResultEvent>) {
      progress.runFinished(event.execution.status !== 'passed');
      p.refreshProgress();
    },
  };
}

export { colourWanted } from './style.js';
export { getConsoleHooks, terminalSafe, displayWidth } from '@agentest/report';
export type { ConsoleHooks, ConsoleLayout, LayoutContext, LayoutPrinter } from '@agentest/report';
