import {
  agentExecutor,
  combine,
  containsAssertion,
  echoAgent,
  inlineCases,
  recorder,
  type ScriptedRun,
} from '@agentest/test-utils';
import type { AgentestPlugin, TestCase } from '../src/index.js';

export { runPlan as plan, testCase } from '@agentest/test-utils';

/**
 * The smallest useful kernel as one plugin: the inline loader, the echo agent, an agent executor (scripted by
 * `run`, if given) and `contains`.
 */
export function inlinePlugins(cases: TestCase[], run?: ScriptedRun): AgentestPlugin[] {
  return [combine('test:inline', [inlineCases(cases), echoAgent(), agentExecutor(run), containsAssertion()])];
}

/** A reporter that keeps every report event. */
export function collector(): { plugin: AgentestPlugin; events: { type: string; [k: string]: unknown }[] } {
  const { plugin, events } = recorder();
  return { plugin, events };
}
