import { expect, isAssertionError, type JudgeRunner, type SnapshotRunner } from '@agentest/expect';
import { addJudgeUsage } from '@agentest/kernel/results';
import {
  type AssertionResult,
  type ExecuteContext,
  type Execution,
  type JudgeRecord,
  type Status,
  type TestCase,
} from '@agentest/kernel';
import type { ScriptPool } from '@agentest/plugin-script';
import { Conversation } from './conversation.js';
import { simulateThrough, type SimulationHost } from './simulate-loop.js';
import type { Simulations } from './simulations.js';
import type { SpecData } from './kit-case.js';
import { kitJudge, withKitJudge } from './kit-judge.js';
import { KitSnapshots, withKitSnapshots } from './kit-snapshot.js';
import type { SandboxEntries } from './sandbox-entry.js';
import type { RunInput, TestFn, TestFnContext } from './types.js';

/** What the executor needs to reach the sandbox; built lazily by the plugin. */
export interface SpecSandbox {
  pool(): ScriptPool;
  entries: SandboxEntries;
  aliases(): Record<string, string>;
}

interface Ending {
  status: Status;
  error?: string;
  metrics?: Record<string, number>;
  logs?: string[];
}

const ASSERTION_PREFIX = /^AssertionError: /;

/**
 * One run of one `test()` function. A test from a file runs in the sandbox with the case's timeout;
 * a live function (`runSuite`) runs here. Either way `ctx.run` reaches the agent on this thread.
 * A failed expectation is `failed`, any other throw (an empty `new Error('')` included) is `error`,
 * and its metrics are its `ctx.metric` values; its turns are kept in `details.turns` for the kit rule.
 */
export async function executeSpec(testCase: TestCase, ctx: ExecuteContext, sandbox: SpecSandbox): Promise<Execution> {
  const spec = testCase.data as SpecData;
  const conversation = new Conversation(testCase, ctx);
  const failures: AssertionResult[] = [];
  const agent = ctx.agent
    ? {
        id: ctx.agent.id,
        ...(ctx.agent.connector ? { connector: ctx.agent.connector } : {}),
        ...(ctx.agent.path ? { path: ctx.agent.path } : {}),
      }
    : { id: '' };
  const judges: JudgeRecord[] = [];
  const judgeRunner = kitJudge(ctx, judges, ctx.context.chat_id);
  const snapshots = new KitSnapshots(ctx.plan, testCase);
  const started = performance.now();
  const ended =
    typeof spec.fn === 'function'
      ? await withKitJudge(judgeRunner, () =>
          withKitSnapshots(snapshots.runner, () =>
            runInProcess(spec.fn as TestFn, testCase, ctx, conversation, agent, failures),
          ),
        )
      : await runInSandbox(spec, ctx, sandbox, conversation, agent, failures, judgeRunner, snapshots.runner);
  const ending = await snapshots.settle(ended, failures);
  const execution: Execution = {
    run: ctx.run,
    status: ending.status,
    duration_ms: performance.now() - started,
    assertions: failures,
    // The test's own `ctx.metric` values; the kit rule (`measureKitRun`) adds what its turns measured.
    metrics: { ...ending.metrics },
    details: { grade: ending.status === 'passed' ? 'PASS' : 'FAIL', turns: conversation.turns },
  };
  if (ending.error !== undefined) execution.error = ending.error;
  if (conversation.lastResult !== undefined) execution.output = conversation.lastResult;
  if (conversation.lastReply) execution.reply = conversation.lastReply;
  if (ending.logs?.length) execution.logs = ending.logs;
  // The last simulated conversation, drawn by reports as a dynamic case's.
  if (conversation.simulations.last) execution.details!.dynamic = conversation.simulations.last;
  if (judges.length) {
    execution.details!.judges = judges;
    for (const record of judges) addJudgeUsage(execution, record);
  }
  return execution;
}

/** The host functions the sandbox's `ctx.simulate` calls, bound to this run's simulations. */
function simulationHost(simulations: Simulations): SimulationHost {
  return {
    simulateStart: (options) => simulations.simulateStart(options),
    simulateStep: (id) => simulations.simulateStep(id),
    simulateFinish: (id, ended) => simulations.simulateFinish(id, ended),
  };
}

async function runInSandbox(
  spec: SpecData,
  ctx: ExecuteContext,
  sandbox: SpecSandbox,
  conversation: Conversation,
  agent: TestFnContext['agent'],
  failures: AssertionResult[],
  judgeRunner: JudgeRunner,
  snapshotRunner: SnapshotRunner,
): Promise<Ending> {
  if (!spec.file) return { status: 'error', error: `test "${spec.name}" has no file to run from` };
  const result = await sandbox.pool().call(
    {
      file: sandbox.entries.entryFor(spec.file),
      fn: '__agentest_kit_run',
      args: [spec.name, agent],
      timeoutMs: ctx.timeoutMs,
      alias: sandbox.aliases(),
      host: {
        run: (input: RunInput) => conversation.run(input),
        ...simulationHost(conversation.simulations),
        judge: judgeRunner,
        snapshot: snapshotRunner,
        failed: async (details: { matcher: string; message: string; expected?: unknown; actual?: unknown }) =>
          void failures.push(assertionOf(details)),
      },
    },
    ctx.signal,
  );
  const logs = result.logs;
  if (result.status === 'ok')
    return {
      status: 'passed',
      metrics: (result.value as { metrics?: Record<string, number> } | undefined)?.metrics ?? {},
      logs,
    };
  if (result.status === 'missing')
    return { status: 'error', error: 'the agentest runtime did not load in the sandbox', logs };
  if (result.status === 'timeout') return { status: 'timeout', error: result.error, logs };
  return ASSERTION_PREFIX.test(result.error)
    ? { status: 'failed', error: result.error.replace(ASSERTION_PREFIX, ''), logs }
    : { status: 'error', error: result.error, logs };
}

async function runInProcess(
  fn: TestFn,
  testCase: TestCase,
  ctx: ExecuteContext,
  conversation: Conversation,
  agent: TestFnContext['agent'],
  failures: AssertionResult[],
): Promise<Ending> {
  const logs: string[] = [];
  const metrics: Record<string, number> = {};
  const testCtx: TestFnContext = {
    name: testCase.name ?? testCase.id,
    agent,
    expect,
    run: (input) => conversation.run(input),
    simulate: (options) => simulateThrough(conversation.simulations, options),
    log: (...args) => void logs.push(args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' ')),
    metric: (name, value) => {
      if (
        typeof name !== 'string' ||
        !name ||
        name in Object.prototype ||
        typeof value !== 'number' ||
        !Number.isFinite(value)
      )
        throw new TypeError(
          `ctx.metric(name, value) needs a name and a finite number, got ${String(name)} = ${String(value)}`,
        );
      metrics[name] = value;
    },
    ...(ctx.agent && 'adapter' in ctx.agent ? { adapter: (ctx.agent as { adapter?: unknown }).adapter } : {}),
  };
  try {
    await Promise.race([fn(testCtx), aborted(ctx.signal)]);
    return { status: 'passed', metrics, logs };
  } catch (error) {
    if (ctx.signal.aborted) throw error;
    if (isAssertionError(error)) {
      failures.push(assertionOf(error));
      return { status: 'failed', error: error.message, logs };
    }
    return { status: 'error', error: thrownText(error), logs };
  }
}

function assertionOf(details: {
  matcher: string;
  message: string;
  expected?: unknown;
  actual?: unknown;
}): AssertionResult {
  return {
    type: `expect.${details.matcher}`,
    pass: false,
    message: details.message,
    ...('expected' in details ? { expected: details.expected } : {}),
    ...('actual' in details ? { actual: details.actual } : {}),
  };
}

/** A throw's text; one with nothing to say still says what it was. */
function thrownText(error: unknown): string {
  if (error instanceof Error)
    return error.message
      ? `${error.name && error.name !== 'Error' ? `${error.name}: ` : ''}${error.message}`
      : `${error.name || 'Error'} thrown with an empty message`;
  if (error === undefined || error === null) return `the test threw ${String(error)}`;
  if (typeof error === 'string') return error ? error : 'the test threw an empty string';
  try {
    return `the test threw ${JSON.stringify(error)}`;
  } catch {
    return `the test threw ${String(error)}`;
  }
}

function aborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}
