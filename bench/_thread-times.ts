import { readdirSync, readFileSync } from 'node:fs';

/**
 * Per-thread scheduler figures of this process, from Linux's `/proc/self/task/<tid>/schedstat`: the
 * time each thread ran on a core and the time it was ready to run but waited for one (other load on
 * the machine). `process.cpuUsage()` only gives the sum over every thread, which hides whether the
 * main thread (where the runner, the connectors and the HTTP client live) is the one that is short
 * of CPU. Empty off Linux: callers then leave those figures out.
 */
export type ThreadTimes = Map<number, { cpuMs: number; waitMs: number }>;

export function threadTimes(): ThreadTimes {
  const times: ThreadTimes = new Map();
  let tids: string[];
  try {
    tids = readdirSync('/proc/self/task');
  } catch {
    return times;
  }
  for (const tid of tids) {
    try {
      const [cpu, wait] = readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8').split(' ').map(Number);
      times.set(Number(tid), { cpuMs: cpu! / 1e6, waitMs: wait! / 1e6 });
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return times;
}

/** What the threads in `tids` (all when omitted) used between two readings. */
export function usedBetween(
  before: ThreadTimes,
  after: ThreadTimes,
  tids?: Iterable<number>,
): { cpuMs: number; waitMs: number } {
  let cpuMs = 0;
  let waitMs = 0;
  for (const tid of tids ?? after.keys()) {
    const end = after.get(tid);
    if (!end) continue;
    const start = before.get(tid) ?? { cpuMs: 0, waitMs: 0 };
    cpuMs += end.cpuMs - start.cpuMs;
    waitMs += end.waitMs - start.waitMs;
  }
  return { cpuMs, waitMs };
}
