import type { AgentestPlugin, ExecuteContext, Execution, TestCase } from '@agentest/kernel';
import { echoExecution, executeAgentCase } from './execute-agent-case.js';
import { validateOptions, type AgentsPluginOptions } from './options.js';
import { AgentResolver } from './resolver.js';

export const PLUGIN_NAME = 'agentest:agent';

/**
 * Makes `agent` cases run: the `agent` executor, plus the resolver for config agents (adapters,
 * agents, connector agents) and the built-in `echo` and `mock` agents.
 */
export function agents(options: AgentsPluginOptions = {}): AgentestPlugin {
  return {
    name: PLUGIN_NAME,
    apply({ hooks }) {
      const validated = validateOptions(options, PLUGIN_NAME);
      const resolver = new AgentResolver(validated);
      hooks.resolve.tapPromise(PLUGIN_NAME, async (ref, { plan }) =>
        resolver.resolve(ref, validated.cwd ?? plan.input.cwd),
      );
      // Without -n and with nothing found from the input's path, a config that declares exactly one
      // agent means that agent. Stage 50: after path-based resolvers, before late "not found" taps.
      hooks.resolve.tapPromise({ name: PLUGIN_NAME, stage: 50 }, async (ref, { plan }) => {
        const only = validated.agents.size === 1 ? [...validated.agents.keys()][0] : undefined;
        return !ref.id && only ? resolver.resolve({ ...ref, id: only }, validated.cwd ?? plan.input.cwd) : undefined;
      });
      // Stage 200: after every other resolver, Yao's "not found" report (stage 100) included.
      hooks.resolve.tapPromise({ name: PLUGIN_NAME, stage: 200 }, async (ref) => resolver.notFound(ref));
      // The kernel awaits a tap's answer only when it is a promise: echo runs are answered at once.
      const execute = (testCase: TestCase, ctx: ExecuteContext) =>
        echoExecution(testCase, ctx) ?? executeAgentCase(testCase, ctx);
      hooks.execute.for('agent').tap(PLUGIN_NAME, execute as (testCase: TestCase, ctx: ExecuteContext) => Execution);
      hooks.teardown.tapPromise(PLUGIN_NAME, () => resolver.closeAll());
    },
  };
}
