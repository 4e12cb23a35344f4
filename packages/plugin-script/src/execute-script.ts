import { addJudgeUsage } from '@agentest/kernel/results';
import { type ExecuteContext, type Execution, type JudgeRecord, type Suite, type TestCase } from '@agentest/kernel';
import type { ScriptPool, TestOutcome, YaoRuntimeOptions } from './pool/types.js';
import { yaoProcessResolver, type ProcessStub } from './resolve/process.js';
import { scriptContext, type ScriptContext } from './script-context.js';
import { scriptJudge } from './script-judge.js';
import { scriptSnapshot } from './script-snapshot.js';
import type { ScriptCaseData } from './script-suite.js';

/**
 * Runs one script case in the sandbox. `TestMain` runs once per suite, before the first test; if it
 * does not pass, every test of the file is an `error` naming why. Everything a test does is data on
 * the Execution; nothing here throws for a test's behaviour.
 */
export class ScriptExecutor {
  private readonly mains = new WeakMap<Suite, Promise<TestOutcome>>();
  private readonly runtimes = new Map<string, YaoRuntimeOptions>();

  constructor(
    private readonly pool: () => ScriptPool,
    private readonly stubs: Record<string, ProcessStub> = {},
  ) {}

  async execute(testCase: TestCase, ctx: ExecuteContext): Promise<Execution> {
    const data = testCase.data as ScriptCaseData;
    const context = this.contextFor(data, data.fn, ctx);
    let main: TestOutcome | undefined;
    if (data.testMain) {
      main = await this.testMain(data, ctx);
      if (main.status !== 'passed') {
        return {
          run: ctx.run,
          status: 'error',
          duration_ms: 0,
          error: `TestMain ${main.status}: ${main.error ?? 'no reason given'}`,
          assertions: [],
          metrics: {},
          logs: [],
        };
      }
    }
    const judges: JudgeRecord[] = [];
    const outcome = await this.pool().test(
      {
        file: data.file,
        fn: data.fn,
        args: [context],
        timeoutMs: ctx.timeoutMs,
        cwd: ctx.plan.input.cwd,
        yao: {
          ...this.runtime(data, ctx.plan.input.cwd),
          judge: scriptJudge(ctx, judges, context.chat_id),
          snapshot: scriptSnapshot(ctx.plan, testCase),
        },
        beforeEach: data.beforeEach,
        afterEach: data.afterEach,
        ...(main?.value !== undefined ? { main: main.value } : {}),
      },
      ctx.signal,
    );
    return withJudges(toExecution(outcome, ctx.run), judges);
  }

  private testMain(data: ScriptCaseData, ctx: ExecuteContext): Promise<TestOutcome> {
    let pending = this.mains.get(ctx.suite);
    if (!pending) {
      pending = this.pool().test(
        {
          file: data.file,
          fn: 'TestMain',
          args: [this.contextFor(data, 'TestMain', ctx)],
          timeoutMs: ctx.timeoutMs,
          cwd: ctx.plan.input.cwd,
          yao: this.runtime(data, ctx.plan.input.cwd),
        },
        ctx.signal,
      );
      this.mains.set(ctx.suite, pending);
    }
    return pending;
  }

  /** Yao's runtime for the test's `ctx` (argument 0 after `t`) and `Process()`, resolved in the test's app. */
  private runtime(data: ScriptCaseData, cwd: string): YaoRuntimeOptions {
    const key = `${data.root}\0${cwd}`;
    let runtime = this.runtimes.get(key);
    if (!runtime) {
      runtime = {
        ctxArg: 0,
        processes: yaoProcessResolver({
          root: data.root,
          cwd,
          stubs: this.stubs,
          stubHint: (name) =>
            `To test this script, stub it in agentest.config.ts: script({ processes: { "${name}": { value: <what it returns> } } })`,
        }),
      };
      this.runtimes.set(key, runtime);
    }
    return runtime;
  }

  /** Yao names a script test's chat `script-test-<TestName>`; a `--ctx` file's `chat_id` wins. */
  private contextFor(data: ScriptCaseData, name: string, ctx: ExecuteContext): ScriptContext {
    const run = ctx.runs > 1 ? `-run${ctx.run}` : '';
    return scriptContext(ctx.context, {
      chatId: ctx.plan.env.ctx?.chat_id || `script-test-${name}${run}`,
      assistantId: data.assistantId,
    });
  }
}

/** The run's `t.assert.Agent` judgements: each one's record in `details.judges`, their cost in `judge`. */
function withJudges(execution: Execution, judges: JudgeRecord[]): Execution {
  if (!judges.length) return execution;
  execution.details = { ...execution.details, judges };
  for (const record of judges) addJudgeUsage(execution, record);
  return execution;
}

export function toExecution(outcome: TestOutcome, run: number): Execution {
  const details: Record<string, unknown> = {};
  if (outcome.assertion) details.assertion = outcome.assertion;
  if (outcome.location) details.location = outcome.location;
  if (outcome.status === 'skipped' && outcome.error) details.skip_reason = outcome.error;
  const error =
    outcome.status === 'skipped' || outcome.error === undefined
      ? undefined
      : outcome.location
        ? `${outcome.error} (at ${outcome.location})`
        : outcome.error;
  return {
    run,
    status: outcome.status,
    duration_ms: outcome.durationMs,
    ...(error !== undefined ? { error } : {}),
    ...(outcome.value !== undefined ? { output: outcome.value } : {}),
    assertions: [],
    metrics: {},
    logs: outcome.logs,
    ...(Object.keys(details).length ? { details } : {}),
  };
}
