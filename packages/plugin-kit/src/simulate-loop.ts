import type { SimulateOptions, SimulationResult } from './types.js';

/** The main thread's side of `ctx.simulate`, reached directly or through the sandbox's host functions. */
export interface SimulationHost {
  simulateStart(options: Omit<SimulateOptions, 'until'>): Promise<number>;
  /** Plays one turn; `reply` is the agent's text, absent when the conversation ended without one. */
  simulateStep(id: number): Promise<{ ended?: SimulationResult['ended']; turn?: number; reply?: string }>;
  simulateFinish(id: number, ended: SimulationResult['ended']): Promise<SimulationResult>;
}

/**
 * `ctx.simulate`, on the side where the test's `until` lives (the sandbox, or this thread for
 * `runSuite`): each step plays one turn on the main thread, then `until` looks at the reply.
 */
export async function simulateThrough(host: SimulationHost, options: SimulateOptions = {}): Promise<SimulationResult> {
  if (options === null || typeof options !== 'object')
    throw new TypeError('ctx.simulate({ persona, goal, maxTurns, until }) needs an options object');
  const { until, ...rest } = options;
  if (until !== undefined && typeof until !== 'function')
    throw new TypeError('ctx.simulate: until must be a function (reply, turn) => boolean');
  const id = await host.simulateStart(rest);
  for (;;) {
    const step = await host.simulateStep(id);
    if (step.ended) return host.simulateFinish(id, step.ended);
    if (until && (await until(step.reply ?? '', step.turn ?? 0))) return host.simulateFinish(id, 'until');
  }
}
