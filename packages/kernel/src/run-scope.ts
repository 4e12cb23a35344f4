import type { RunPlan } from './types/run.js';

/** Who makes a model call: the agent under test, an LLM judge, or a simulated user. */
export type CallRole = 'agent' | 'judge' | 'simulator';

/**
 * The case run a call is made for, as the kernel knows it. Boundaries that must tell calls apart by
 * case (the cassette recorder, the usage meter) find it through the run's abort signal, which every
 * executor, agent, tool loop and assertion already passes down with its calls.
 */
export interface RunScope {
  readonly plan: RunPlan;
  readonly suite: string;
  readonly caseId: string;
  /** Where the case is written, so that files about it can sit beside it. */
  readonly file: string;
  readonly run: number;
  readonly runs: number;
  /** `judge` while the run's assertions are judged; calls made then are the judges'. */
  role: CallRole;
  /** A multi-turn executor sets the conversation turn it is on; single-turn cases stay at 0. */
  turn: number;
}

/**
 * Keyed by the run's signal rather than held in an AsyncLocalStorage: on Node 20 the latter hooks
 * every promise of the process, which halves the kernel's throughput on cheap cases.
 */
const scopes = new WeakMap<AbortSignal, RunScope>();

/** The run a call with this signal is made for; undefined outside a case run (suite hooks, reporters). */
export function runScopeOf(signal: AbortSignal | undefined): RunScope | undefined {
  return signal && scopes.get(signal);
}

/** Makes `signal` stand for the case run (the run watch does it when it makes the run's signal). */
export function bindRunScope(signal: AbortSignal, scope: RunScope | undefined): void {
  if (scope) scopes.set(signal, scope);
  else scopes.delete(signal);
}

/**
 * A signal made from the run's (`AbortSignal.any([signal, timeout])`) stands for the same case run, so
 * calls made with it are still recorded and counted for the case; with `role`, as that role's calls
 * (a simulated user's, say). Returns `derived`.
 */
export function inheritRunScope(derived: AbortSignal, from: AbortSignal, role?: CallRole): AbortSignal {
  const scope = scopes.get(from);
  if (scope) scopes.set(derived, role && role !== scope.role ? { ...scope, role } : scope);
  return derived;
}
