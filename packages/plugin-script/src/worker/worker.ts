import { cloneable, isErrorLike, thrownMessage } from './describe.js';
import { runBounded, type Invocation } from './deadline.js';
import { invoke } from './invoke.js';
import { Sandbox, type HostChannel } from './sandbox.js';
import { ProcessExit } from './sandbox-globals.js';
import { closeHostCodeGeneration } from './host-realm.js';
import { followCoverage, retirement, takeCoverage } from './coverage.js';
import { createT, FatalStop, TestRecord } from './testing.js';
import type { WorkerResult, WorkerTask } from '../pool/protocol.js';
import type { CoverageTask, ScriptCoverage } from '../coverage/coverage-protocol.js';
import { boundedLogs } from './log-buffer.js';
import { loadedScript, lookup } from './loaded-scripts.js';
import { yaoContext } from './yao-context.js';
import type { AssertionFailure } from './assert.js';
import { mockAssertions } from './mock-assert.js';
import { Mocks } from './mocks.js';
import { matchSnapshot } from './snapshot-assert.js';
import { YaoRuntime } from './yao-runtime.js';

/**
 * The piscina worker. Each task gets a fresh sandbox; compiled bundles are cached per thread, so a
 * test file is parsed once per thread however many of its tests run here.
 */
let active: Sandbox | undefined;

closeHostCodeGeneration();

// With these handlers an escaped error is blamed on the running task and the thread survives.
process.on('uncaughtException', (error) => active?.fail(error, 'uncaught exception'));
process.on('unhandledRejection', (reason) => active?.fail(reason, 'unhandled promise rejection'));

export default async function runTask(task: WorkerTask | CoverageTask): Promise<WorkerResult | ScriptCoverage[]> {
  if (task.mode === 'coverage') return takeCoverage(task);
  const coverage = followCoverage(task.coverage === true);
  if (coverage) await coverage;
  if (task.mode === 'ping') return { status: 'ok', logs: [], durationMs: 0 };
  if (task.started) {
    Atomics.store(task.started, 0, 1);
    Atomics.notify(task.started, 0);
  }
  const started = performance.now();
  const deadline = started + task.timeoutMs;
  const logs = boundedLogs();
  // A test's mocks live as long as its task: nothing a test mocks reaches the next one.
  const mocks = task.mode === 'test' ? new Mocks() : undefined;
  const runtime = new YaoRuntime(logs, deadline, task.yao?.processes, mocks);
  const sandbox = new Sandbox(logs, task.host as HostChannel | undefined, runtime);
  mocks?.adopt(sandbox);
  const ctxArg = task.yao?.ctxArg;
  if (ctxArg !== undefined && ctxArg < task.args.length) {
    const ctx = yaoContext(task.args[ctxArg], logs, (name, args) => runtime.stub(name, args, sandbox));
    task.args[ctxArg] = mocks ? mocks.context(ctx) : ctx;
  }
  active = sandbox;
  try {
    const loaded = runBounded(deadline, (options) => loadedScript(task).runInContext(sandbox.context, options));
    const result =
      task.mode === 'test'
        ? await runTest(task, sandbox, loaded, logs, deadline, runtime, mocks!)
        : await runCall(task, sandbox, loaded, logs, deadline);
    return { ...result, durationMs: performance.now() - started, ...(task.coverage ? await retirement() : {}) };
  } finally {
    active = undefined;
    runtime.dispose();
    sandbox.dispose();
    task.yao?.processes?.port.close();
  }
}

async function runCall(
  task: WorkerTask,
  sandbox: Sandbox,
  loaded: Invocation,
  logs: string[],
  deadline: number,
): Promise<Omit<WorkerResult, 'durationMs'>> {
  let outcome = loaded;
  if (outcome.kind === 'returned') {
    const fn = lookup(sandbox, task.fn);
    if (!fn) return { status: 'missing', logs };
    outcome = await invoke(sandbox, fn, task.args, deadline);
  }
  if (outcome.kind === 'returned') return { status: 'ok', value: cloneable(outcome.value), logs };
  if (outcome.kind === 'timeout') return { status: 'timeout', error: timeoutText(task), logs };
  return { status: 'error', ...failure(outcome), logs };
}

async function runTest(
  task: WorkerTask,
  sandbox: Sandbox,
  loaded: Invocation,
  logs: string[],
  deadline: number,
  runtime: YaoRuntime,
  mocks: Mocks,
): Promise<Omit<WorkerResult, 'durationMs'>> {
  const record = new TestRecord(logs);
  const failed = (failure: AssertionFailure) => record.failAssertion(failure);
  const t = createT(task.fn, record, task.main, (args) => runtime.judge(args), {
    mock: mocks.api(),
    assert: {
      ...mockAssertions(mocks.log, failed),
      MatchSnapshot: matchSnapshot((ask) => runtime.snapshot(ask), failed),
    },
  });
  const call = async (name: string): Promise<Invocation | undefined> => {
    const fn = lookup(sandbox, name);
    return fn ? invoke(sandbox, fn, [t, ...task.args], deadline) : undefined;
  };
  let outcome = loaded;
  let value: unknown;
  // A throw, fatal() or timeout in BeforeEach stops the test; a failed assertion there does not.
  if (outcome.kind === 'returned' && task.beforeEach) outcome = (await call('BeforeEach')) ?? outcome;
  if (outcome.kind === 'returned') {
    outcome = (await call(task.fn)) ?? {
      kind: 'threw',
      error: new Error(`${task.fn} is not a top-level function of the test file`),
    };
    if (outcome.kind === 'returned') value = outcome.value;
  }
  // AfterEach runs after a failure or a throw too, but not after a timeout.
  if (task.afterEach && loaded.kind === 'returned' && outcome.kind !== 'timeout') {
    const after = await call('AfterEach');
    if (after && after.kind !== 'returned' && outcome.kind === 'returned') outcome = after;
  }

  const thrown = outcome.kind === 'threw' && !(outcome.error instanceof FatalStop) ? failure(outcome) : undefined;
  const verdict = record.verdict({
    exception: thrown?.error,
    timedOut: outcome.kind === 'timeout' ? timeoutText(task) : undefined,
  });
  return {
    status: verdict.status,
    ...(verdict.error !== undefined ? { error: verdict.error } : {}),
    ...(thrown?.stack && verdict.status === 'error' ? { stack: thrown.stack } : {}),
    ...(record.assertion ? { assertion: record.assertion } : {}),
    ...(value !== undefined ? { value: cloneable(value) } : {}),
    logs,
  };
}

function failure(outcome: Extract<Invocation, { kind: 'threw' }>): { error: string; stack?: string } {
  const { error, where } = outcome;
  if (error instanceof ProcessExit)
    return { error: `process.exit(${String(error.code)}) called: a script cannot end the run` };
  const message = thrownMessage(error);
  return {
    error: where ? `${where}: ${message}` : message,
    ...(isErrorLike(error) && error.stack ? { stack: error.stack } : {}),
  };
}

function timeoutText(task: WorkerTask): string {
  return `timeout after ${task.timeoutMs}ms`;
}
