/**
 * How many runs it takes V8 to settle. A process's first runs of a hot path are slower than the
 * rest: V8 interprets the code first, then compiles the hot functions on its helper threads (which
 * take CPU from the same cores) and swaps them in. A throughput bench measures the steady state a
 * long suite runs in, so the benches that are bound by CPU per call run the workload until its CPU
 * per call stops falling: until `steadyRuns` runs in a row come no lower than `tolerance` below the
 * least before them, or `maxRuns` runs. Each run's figure is returned, so the warm-up is shown, not
 * hidden.
 */
export async function settle(
  run: () => Promise<number>,
  {
    steadyRuns = 2,
    tolerance = 0.03,
    maxRuns = 12,
  }: { steadyRuns?: number; tolerance?: number; maxRuns?: number } = {},
): Promise<number[]> {
  const perCall: number[] = [];
  let least = Infinity;
  let steady = 0;
  while (perCall.length < maxRuns && steady < steadyRuns) {
    const value = await run();
    perCall.push(value);
    steady = value >= least * (1 - tolerance) ? steady + 1 : 0;
    least = Math.min(least, value);
  }
  return perCall;
}
