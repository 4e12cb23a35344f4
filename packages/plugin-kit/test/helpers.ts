import { fileURLToPath } from 'node:url';
import { createKernel, type AgentestPlugin, type CaseResult, type RunOutcome, type RunPlan } from '@agentest/kernel';
import { agents, type Adapter } from '@agentest/plugin-agent';
import { verdictPlugin } from '@agentest/report';
import { kit, type KitOptions } from '../src/index.js';

export const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));

export function plan(input: string, overrides: Partial<RunPlan> = {}): RunPlan {
  return {
    input: { input, cwd: FIXTURES },
    runs: 1,
    parallel: 2,
    failFast: false,
    env: {},
    verbose: false,
    ...overrides,
  };
}

/** Runs one input through a kernel with the agent plugin (one adapter, `support`), the kit plugin and the verdict. */
export async function runKit(
  input: string,
  adapter: Adapter,
  options: { plan?: Partial<RunPlan>; kit?: KitOptions } = {},
): Promise<{ outcome: RunOutcome; results: Map<string, CaseResult> }> {
  const results = new Map<string, CaseResult>();
  const collector: AgentestPlugin = {
    name: 'test:collector',
    apply: ({ hooks }) =>
      hooks.report.tap(
        'test:collector',
        (event) => void (event.type === 'result' && results.set(event.id, event as CaseResult)),
      ),
  };
  const kernel = createKernel({
    plugins: [
      agents({ agents: { support: adapter } }),
      kit({ agent: 'support', ...options.kit }),
      verdictPlugin(),
      collector,
    ],
  });
  const outcome = await kernel.run(plan(input, options.plan));
  return { outcome, results };
}
