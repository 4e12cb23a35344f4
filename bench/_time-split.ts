import type { Execution } from '@agentest/kernel';

/**
 * Where a case's time goes, averaged over the cases: each call as its caller saw it (request to
 * reply, the fake server's latency included), the gaps between its calls (reading the reply,
 * checkpoints, the next request's brief), and the run's wall time past its slowest case.
 */
export interface TimeSplit {
  /** Simulator and agent calls made. */
  calls: number;
  /** Mean call time, as the dynamic plugin timed it (simulator and agent calls alike). */
  callMs: number;
  /** Mean time per case outside its calls, divided by its calls. */
  gapPerCallMs: number;
  /** Slowest case's duration. */
  slowestCaseMs: number;
}

export function timeSplit(executions: Execution[]): TimeSplit {
  let calls = 0;
  let callTotal = 0;
  let gapTotal = 0;
  for (const e of executions) {
    const turns = (e.details?.dynamic as { turns?: { simulator_ms?: number; agent_ms?: number }[] } | undefined)?.turns;
    let inCalls = 0;
    let count = 0;
    for (const t of turns ?? [])
      for (const ms of [t.simulator_ms, t.agent_ms])
        if (ms !== undefined) {
          inCalls += ms;
          count++;
        }
    calls += count;
    callTotal += inCalls;
    gapTotal += e.duration_ms - inCalls;
  }
  return {
    calls,
    callMs: callTotal / calls,
    gapPerCallMs: gapTotal / calls,
    slowestCaseMs: Math.max(...executions.map((e) => e.duration_ms)),
  };
}
