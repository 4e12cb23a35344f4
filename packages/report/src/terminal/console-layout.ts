import type { DeepReadonly, KernelApi, ResultEvent, RunPlan, StartEvent, SummaryEvent } from '@agentest/kernel';
import { HookMap, SyncBailHook } from 'tapable';
import type { SuiteKind } from '../suite-kind.js';
import type { PaintFormat } from './paint-format.js';

export type { PaintFormat } from './paint-format.js';

/** What a layout prints through: whole lines above the console's progress line, painted when colour is on. */
export interface LayoutPrinter {
  /** Whether colour is on for the stream the console writes to. */
  readonly colour: boolean;
  line(text?: string): void;
  lines(texts: readonly string[]): void;
  /** `text` in the given styles when colour is on, untouched otherwise. */
  paint(format: PaintFormat, text: string): string;
}

/** What a layout is made with, once per run, when the `start` event arrives. */
export interface LayoutContext {
  printer: LayoutPrinter;
  /** The run's plan (`-n`, `--ctx`, `--timeout`, …), when the kernel ran setup. */
  plan: RunPlan | undefined;
  /** `-v`: print each case's output and logs. */
  verbose: boolean;
  /** Files this run writes, listed under the summary as `Output: <path>`. */
  outputs: readonly string[];
}

/** How the console prints one kind of suite: its header, each finished case and the summary. */
export interface ConsoleLayout {
  header(start: DeepReadonly<StartEvent>): void;
  result(result: DeepReadonly<ResultEvent>): void;
  summary(summary: DeepReadonly<SummaryEvent>): void;
  /** Whether the progress line counts the case as failed; by default a failed, errored or timed-out case. */
  failed?(result: DeepReadonly<ResultEvent>): boolean;
  /** The console repeats the failed cases before the summary unless the layout says it lists them itself. */
  recapsFailures?: false;
}

export interface ConsoleHooks {
  /**
   * Layouts by suite kind: the first tap to return a layout prints the suite. A kind nobody taps
   * gets the console's agent layout (Yao's `Agent Test` output).
   */
  readonly layout: HookMap<SyncBailHook<[LayoutContext], ConsoleLayout | undefined>>;
}

const registry = new WeakMap<object, ConsoleHooks>();

/**
 * The console reporter's own extension points for one kernel (webpack's `getCompilationHooks`
 * pattern): a plugin that owns a suite kind taps `layout.for(kind)` in its `apply` to print that
 * kind its own way, without importing the console reporter, and the console never tests for a kind.
 */
export function getConsoleHooks(kernel: Pick<KernelApi, 'hooks'>): ConsoleHooks {
  let hooks = registry.get(kernel.hooks);
  if (!hooks) {
    hooks = Object.freeze({
      layout: new HookMap<SyncBailHook<[LayoutContext], ConsoleLayout | undefined>>(
        (kind) => new SyncBailHook<[LayoutContext], ConsoleLayout | undefined>(['context'], `console.layout.${kind}`),
      ),
    });
    registry.set(kernel.hooks, hooks);
  }
  return hooks;
}

/** The layout the plugins registered for `kind`, if any. */
export function layoutFor(hooks: ConsoleHooks, kind: SuiteKind, context: LayoutContext): ConsoleLayout | undefined {
  return hooks.layout.get(kind)?.call(context);
}
