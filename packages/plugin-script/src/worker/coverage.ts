import { Session } from 'node:inspector/promises';
import type { CoverageTask, ScriptCoverage } from '../coverage/coverage-protocol.js';
import { isBundleUrl } from '../coverage/coverage-protocol.js';

/**
 * V8's precise coverage of this thread, through the thread's own inspector: started before the first
 * task that asks for it runs any user code, so every function of the bundles compiled here is counted.
 */
let session: Session | undefined;
// Node 20 has it; TypeScript's ES2022 library does not declare it yet.
const waitAsync = (Atomics as unknown as { waitAsync: WaitAsync }).waitAsync;
type WaitAsync = (
  array: Int32Array,
  index: number,
  value: number,
  timeoutMs: number,
) => { async: false; value: string } | { async: true; value: Promise<string> };
let starting: Promise<void> | undefined;

export function startCoverage(): Promise<void> {
  starting ??= (async () => {
    const own = new Session();
    own.connect();
    await own.post('Profiler.enable');
    await own.post('Profiler.startPreciseCoverage', { callCount: true, detailed: true });
    session = own;
  })();
  return starting;
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
  const { result } = await session.post('Profiler.takePreciseCoverage');
  return result
    .filter((script) => isBundleUrl(script.url))
    .map(({ url, functions }) => ({ url, functions }) as ScriptCoverage);
}
