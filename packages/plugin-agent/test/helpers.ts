import { containsAssertion, inlineCases, runKernel, type Recording } from '@agentest/test-utils';
import type { AgentestPlugin, AgentRef, RunOutcome, RunPlan, TestCase } from '@agentest/kernel';

export { testCase } from '@agentest/test-utils';

export type Run = Recording & { outcome: RunOutcome };

/**
 * Runs cases through a real kernel with the plugin under test: the inline loader (with the agent hint a JSONL
 * file may give) and `contains` come from the shared harness.
 */
export function run(
  plugins: AgentestPlugin[],
  cases: TestCase[],
  overrides: Partial<RunPlan> = {},
  agentHint?: AgentRef,
): Promise<Run> {
  return runKernel([inlineCases(cases, { agentHint }), containsAssertion(), ...plugins], overrides);
}
