import { Session } from 'node:inspector/promises';
import { getHeapStatistics } from 'node:v8';
import { threadId } from 'node:worker_threads';
import type { CoverageTask, Retirement, ScriptCoverage } from '../coverage/coverage-protocol.js';
import { isBundleUrl } from '../coverage/coverage-protocol.js';

// Node 20 has it; TypeScript's ES2022 library does not declare it yet.
const waitAsync = (Atomics as unknown as { waitAsync: WaitAsync }).waitAsync;
type WaitAsync = (
  array: Int32Array,
  index: number,
  value: number,
  timeoutMs: number,
) => { async: false; value: string } | { async: true; value: Promise<string> };

/** The thread's own inspector session while V8's precise coverage is on. */
let session: Promise<Session> | undefined;

/**
 * Follows the task: precise coverage starts before the first task of a run that collects it runs any
 * user code (so every function of the bundles compiled here is counted), and stops at the first task
 * of a run that does not, so a pool that outlives a coverage run costs nothing more afterwards.
 * Undefined when nothing changes, which is every task but those two.
 */
export function followCoverage(on: boolean): Promise<unknown> | undefined {
  if (on && !session) return (session = startPrecise());
  if (!on && session) return stopPrecise();
  return undefined;
}

async function startPrecise(): Promise<Session> {
  const own = new Session();
  own.connect();
  await own.post('Profiler.enable');
  await own.post('Profiler.startPreciseCoverage', { callCount: true, detailed: true });
  return own;
}

async function stopPrecise(): Promise<void> {
  const own = await session!;
  session = undefined;
  await own.post('Profiler.stopPreciseCoverage');
  await own.post('Profiler.disable');
  own.disconnect();
}

/**
 * The counts since the last take, for the user's bundles only (V8 resets them on every take, so a
 * second take on the same thread never counts a call twice). The pool sends one such task to each of its
 * threads at once: each waits at the barrier until all have arrived (or `waitMs` passed), which keeps
 * piscina from handing two of them to one thread while another thread's counts stay untaken.
 */
export async function takeCoverage(task: CoverageTask): Promise<ScriptCoverage[]> {
  const { barrier, threads, waitMs } = task;
  Atomics.add(barrier, 0, 1);
  Atomics.notify(barrier, 0);
  const until = performance.now() + waitMs;
  for (let arrived = Atomics.load(barrier, 0); arrived < threads; arrived = Atomics.load(barrier, 0)) {
    const left = until - performance.now();
    if (left <= 0) break;
    const wait = waitAsync(barrier, 0, arrived, left);
    if (wait.async) await wait.value;
  }
  if (!session) return [];
  const { result } = await (await session).post('Profiler.takePreciseCoverage');
  return ownScripts(result);
}

/**
 * While precise coverage is on, V8 keeps every function's feedback alive, and with it the fresh `vm`
 * context each task ran in: a thread's heap only grows. Past half its limit, the thread hands its
 * counts over with the task's result and asks to be replaced (see `retireThread` in the pool), long
 * before it would run out of memory in the middle of a test.
 */
export async function retirement(): Promise<{ retire?: Retirement }> {
  if (!session) return {};
  const { used_heap_size: used, heap_size_limit: limit } = getHeapStatistics();
  if (used < limit * RETIRE_AT_SHARE) return {};
  const { result } = await (await session).post('Profiler.takePreciseCoverage');
  return { retire: { threadId, coverage: ownScripts(result) } };
}

const RETIRE_AT_SHARE = 0.5;

function ownScripts(result: ScriptCoverage[]): ScriptCoverage[] {
  return result.filter((script) => isBundleUrl(script.url)).map(({ url, functions }) => ({ url, functions }));
}
