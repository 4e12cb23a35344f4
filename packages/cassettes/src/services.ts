import type { RunPlan } from '@agentest/kernel';
import type { CassetteSession } from './session.js';
import type { UsageMeter } from './usage/meter.js';

/**
 * What watches the calls of one run: its cassettes and its usage meter, found through the run's plan
 * (the kernel's run scope carries it), so two runs in one process never share them.
 */
export interface CallServices {
  cassettes?: CassetteSession;
  meter?: UsageMeter;
}

const byPlan = new WeakMap<RunPlan, CallServices>();

export function servicesOf(plan: RunPlan): CallServices | undefined {
  return byPlan.get(plan);
}

export function attachServices(plan: RunPlan, services: Partial<CallServices>): void {
  byPlan.set(plan, { ...byPlan.get(plan), ...services });
}
