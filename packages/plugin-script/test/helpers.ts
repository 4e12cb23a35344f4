import { fileURLToPath } from 'node:url';
import {
  createKernel,
  type AgentestPlugin,
  type Execution,
  type ResultEvent,
  type RunOutcome,
  type RunPlan,
  type StartEvent,
} from '@agentest/kernel';
import { yaoPlanContext } from '@agentest/plugin-agent';
import { verdictPlugin } from '@agentest/report';
import script, { type ScriptOptions } from '../src/index.js';

export const APP = fileURLToPath(new URL('./fixtures/app', import.meta.url));

/**
 * The time limit of a script call or test that must not time out: it only catches hangs, far above
 * what the call needs even on a busy machine, so the status a test asserts is never a timeout that
 * came first. Tests of timeouts use short limits on scripts that never end.
 */
export const HANG_MS = 60_000;
export const EXAMPLE_APP = fileURLToPath(new URL('../../../examples/app', import.meta.url));

/** A plan as `createRunPlan` builds it: Yao's context from `env` (the identity defaults, `-u`/`-t`, `--ctx`). */
export function plan(input: string, cwd: string, overrides: Partial<RunPlan> = {}): RunPlan {
  const built = { input: { input, cwd }, runs: 1, parallel: 1, failFast: false, env: {}, verbose: false, ...overrides };
  return { context: yaoPlanContext(built.env), ...built };
}

export interface Collected {
  start: StartEvent;
  results: ResultEvent[];
  runs: Map<string, Execution>;
  /** The run's summary, as the kernel's outcome carries it. */
  summary: RunOutcome['summary'];
}

/** Runs a kernel with the script plugin (small pool) and collects its events. */
export async function runKernel(
  p: RunPlan,
  options: ScriptOptions = {},
  extra: AgentestPlugin[] = [],
): Promise<Collected> {
  const events: { type: string; [k: string]: unknown }[] = [];
  const collector: AgentestPlugin = {
    name: 'test:collector',
    apply: ({ hooks }) => hooks.report.tap('test:collector', (e) => void events.push(e as never)),
  };
  const kernel = createKernel({
    plugins: [script({ maxThreads: 2, memoryLimitMb: 64, ...options }), ...extra, verdictPlugin(), collector],
  });
  const outcome = await kernel.run(p);
  const runs = new Map<string, Execution>();
  for (const e of events) if (e.type === 'run_result') runs.set(e.id as string, e.execution as Execution);
  return {
    start: events.find((e) => e.type === 'start') as unknown as StartEvent,
    results: events.filter((e) => e.type === 'result') as unknown as ResultEvent[],
    runs,
    summary: outcome.summary,
  };
}
