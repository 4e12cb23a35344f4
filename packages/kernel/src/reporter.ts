import { isThenable } from './call-taps.js';
import { AgentestError, errorMessage } from './errors.js';
import type { AgentestPlugin } from './plugin.js';
import type {
  CaseStartEvent,
  ResultEvent,
  RunEvent,
  RunPlan,
  RunResultEvent,
  StartEvent,
  SummaryEvent,
} from './types/run.js';

type Awaitable<T> = T | Promise<T>;
export type DeepReadonly<T> = T extends (infer U)[]
  ? readonly DeepReadonly<U>[]
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;

/**
 * A reporter hears the run's events in order. Every member is optional; implement what you need.
 * Events are read-only views: a reporter never changes a verdict.
 */
export interface Reporter {
  /** The plugin's name, and the reporter's in messages: agentest's own are `agentest:<name>`. */
  name: string;
  /** The plan a run follows, before its first event (a report that records the input file and options). */
  onSetup?(plan: DeepReadonly<RunPlan>): void;
  onStart?(event: DeepReadonly<StartEvent>): Awaitable<void>;
  onCaseStart?(event: DeepReadonly<CaseStartEvent>): Awaitable<void>;
  onRunResult?(event: DeepReadonly<RunResultEvent>): Awaitable<void>;
  onResult?(event: DeepReadonly<ResultEvent>): Awaitable<void>;
  onSummary?(event: DeepReadonly<SummaryEvent>): Awaitable<void>;
  /** Flush and close files; called at teardown even when the run failed. */
  close?(): Awaitable<void>;
  /** How long one call may take before the reporter is declared hung (default 60 s; 10 min for onSummary). */
  timeoutMs?: number;
}

const HANDLERS = {
  start: 'onStart',
  case_start: 'onCaseStart',
  run_result: 'onRunResult',
  result: 'onResult',
  summary: 'onSummary',
} as const;

/**
 * Adapts a reporter into a plugin. A reporter that throws or hangs is reported (exit code 3) and
 * silenced for the rest of the run; the other reporters keep writing. Each run of a reused kernel
 * starts with the reporter active again: one bad event must not silence every later run.
 */
export function defineReporter(reporter: Reporter): AgentestPlugin {
  let failed = false;
  return {
    name: reporter.name,
    enforce: 'post',
    apply(kernel) {
      const fail = (what: string, error: unknown) => {
        failed = true;
        kernel.reportError(
          new AgentestError(
            'REPORTER_FAILED',
            `reporter "${reporter.name}" failed in ${what}: ${errorMessage(error)}`,
            { cause: error },
          ),
        );
      };
      // Handlers run synchronously; only one that answers with a promise is raced against its
      // timeout. A timer per event would cost more than a fast reporter's whole work.
      const deliver = (event: RunEvent): void | Promise<void> => {
        if (failed) return;
        const method = HANDLERS[event.type];
        const handler = reporter[method] as ((e: RunEvent) => Awaitable<void>) | undefined;
        if (!handler) return;
        let answer: Awaitable<void>;
        try {
          answer = handler.call(reporter, event);
        } catch (error) {
          fail(method, error);
          return;
        }
        if (!isThenable(answer)) return;
        const limit = reporter.timeoutMs ?? (event.type === 'summary' ? 600_000 : 60_000);
        return withTimeout(Promise.resolve(answer), limit).catch((error: unknown) => fail(method, error));
      };
      kernel.hooks.setup.tap(reporter.name, (plan) => {
        failed = false;
        try {
          reporter.onSetup?.(plan);
        } catch (error) {
          fail('onSetup', error);
        }
      });
      kernel.hooks.report.tapPromise({ name: reporter.name, deliver }, async (event: RunEvent) => deliver(event));
      kernel.hooks.teardown.tapPromise(reporter.name, async () => {
        if (!reporter.close) return;
        try {
          await withTimeout(
            Promise.resolve().then(() => reporter.close!()),
            reporter.timeoutMs ?? 60_000,
          );
        } catch (error) {
          fail('close', error);
        }
      });
    },
  };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
