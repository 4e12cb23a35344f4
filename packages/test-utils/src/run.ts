import { createKernel, type AgentestPlugin, type CaseResult, type RunOutcome, type RunPlan } from '@agentest/kernel';
import { runPlan } from './plan.js';

export type ReportEvent = { type: string; [key: string]: unknown };

/** What a run reported: every event in order, the `result` events, and a result by case id. */
export interface Recording {
  events: ReportEvent[];
  results: CaseResult[];
  byId(id: string): CaseResult;
}

/** A reporter that keeps every report event. */
export function recorder(): Recording & { plugin: AgentestPlugin } {
  const events: ReportEvent[] = [];
  const results: CaseResult[] = [];
  return {
    events,
    results,
    byId: (id) => results.find((r) => r.id === id)!,
    plugin: {
      name: 'test:recorder',
      apply: ({ hooks }) =>
        hooks.report.tap('test:recorder', (event) => {
          events.push(event as unknown as ReportEvent);
          if (event.type === 'result') results.push(event);
        }),
    },
  };
}

/** One run of a real kernel with `plugins` and a recorder; `plan` is the `inline` plan or overrides of it. */
export async function runKernel(
  plugins: AgentestPlugin[],
  plan: Partial<RunPlan> = {},
): Promise<Recording & { outcome: RunOutcome }> {
  const { plugin, ...recording } = recorder();
  const outcome = await createKernel({ plugins: [...plugins, plugin] }).run(runPlan(plan));
  return { outcome, ...recording };
}
