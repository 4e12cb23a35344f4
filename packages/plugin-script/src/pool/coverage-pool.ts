import type { Piscina } from 'piscina';
import type { CoverageTask, ScriptCoverage } from '../coverage/coverage-protocol.js';
import { activeCoverage, type CoverageSource } from '../coverage/coverage-session.js';
import type { WorkerResult, WorkerTask } from './protocol.js';

/** How long a thread waits at the barrier for the others: far above a thread's answer, well below a hang. */
const BARRIER_WAIT_MS = 5_000;

/** While a run collects coverage, a task starts its thread's profiler, and the pool joins the run's sources. */
export function countCoverage(task: WorkerTask, pool: CoverageSource): void {
  const session = activeCoverage();
  if (!session) return;
  task.coverage = true;
  session.attach(pool);
}

/**
 * One coverage task per thread, all posted at once: each waits at a shared barrier until every
 * thread holds one, so each thread answers for itself (see `takeCoverage` in the worker). A thread
 * that died meanwhile (a timed-out script) lost its counts since the last take; the others' stand.
 */
export async function takeThreadCoverage(piscina: Piscina, threads: number): Promise<ScriptCoverage[]> {
  const task: CoverageTask = {
    mode: 'coverage',
    barrier: new Int32Array(new SharedArrayBuffer(4)),
    threads,
    waitMs: BARRIER_WAIT_MS,
  };
  const answers = await Promise.allSettled(
    Array.from({ length: threads }, () => piscina.run(task) as Promise<ScriptCoverage[]>),
  );
  return answers.flatMap((answer) => (answer.status === 'fulfilled' ? answer.value : []));
}

/** A pool that closes while its run still collects hands its counts over first. */
export async function handOverCoverage(pool: CoverageSource): Promise<void> {
  const session = activeCoverage();
  if (session?.detach(pool)) session.add(await pool.takeCoverage());
}

/**
 * A thread that filled up under coverage: its counts go to the run, and the thread is terminated
 * before the task's slot is freed, so no other task lands on it; piscina starts a fresh one.
 */
export async function retireThread(piscina: Piscina, result: WorkerResult): Promise<void> {
  const { retire } = result;
  if (!retire) return;
  delete result.retire;
  activeCoverage()?.add(retire.coverage);
  await piscina.threads.find((thread) => thread.threadId === retire.threadId)?.terminate();
}
