import { assertAll, failureOf } from './assert-case.js';
import { AgentestError, errorMessage } from './errors.js';
import type { ExecuteContext, KernelHooks } from './hooks.js';
import type { Execution } from './types/result.js';
import type { TestCase } from './types/test-case.js';
import { callBail, isThenable } from './call-taps.js';
import type { RunWatch } from './run-watch.js';

/**
 * One run of one case: the executor for its kind, raced against the timeout, then its assertions.
 * The kernel enforces the timeout itself, so an executor that ignores its signal still ends on time.
 * `ctx.signal` is replaced by the run's own signal, which fires at the timeout or on a hard stop.
 */
export async function executeRun(hooks: KernelHooks, testCase: TestCase, ctx: ExecuteContext, watch: RunWatch): Promise<Execution> {
  const run = watch.begin(ctx.timeoutMs);
  ctx.signal = run.signal;
  const started = performance.now();
  let execution: Execution;
  try {
    const hook = hooks.execute.get(testCase.kind);
    const answer = hook ? callBail<Execution>(hook.taps, testCase, ctx) : undefined;
    const result = isThenable(answer) ? await run.race(answer) : answer;
    if (!result) throw new AgentestError('NO_EXECUTOR', `no plugin executes cases of kind "${testCase.kind}"`);
    execution = { ...result, run: ctx.run, duration_ms: result.duration_ms ?? performance.now() - started };
  } catch (error) {
    const duration_ms = performance.now() - started;
    execution = run.timedOut
      ? { run: ctx.run, status: 'timeout', duration_ms, error: `timeout after ${goDuration(ctx.timeoutMs)}`, assertions: [], metrics: {} }
      : { run: ctx.run, status: 'error', duration_ms, error: errorMessage(error instanceof AgentestError && error.cause ? error.cause : error), assertions: [], metrics: {} };
  } finally {
    watch.stop(run);
  }
  execution.duration_ms = Math.round(execution.duration_ms * 100) / 100;
  if (execution.status === 'passed' && testCase.assert?.length) {
    const judged = assertAll(hooks, testCase.assert, {
      output: execution.output,
      testCase,
      execution,
      plan: ctx.plan,
      agent: ctx.agent,
      signal: run.signal,
    });
    const assertions = isThenable(judged) ? await judged : judged;
    execution.assertions = execution.assertions.length ? [...execution.assertions, ...assertions] : assertions;
    for (const a of assertions) if (a.metrics) Object.assign(execution.metrics, a.metrics);
    const failure = failureOf(assertions);
    if (failure) {
      execution.status = failure.status;
      execution.error = failure.text;
    }
  }
  watch.release(run);
  return execution;
}

/** Go's duration format, as Yao prints timeouts: `5m0s`, `30s`, `1.5s`, `250ms`. */
export function goDuration(ms: number): string {
  if (ms < 1000) return `${ms}ms`;
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = (ms % 60_000) / 1000;
  if (h) return `${h}h${m}m${s}s`;
  if (m) return `${m}m${s}s`;
  return `${s}s`;
}
