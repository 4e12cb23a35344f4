import { recorder } from '@agentest/test-utils';
import type { AgentestPlugin } from '../src/index.js';

export { inlinePlugins, runPlan as plan, testCase } from '@agentest/test-utils';

/** A reporter that keeps every report event. */
export function collector(): { plugin: AgentestPlugin; events: { type: string; [k: string]: unknown }[] } {
  const { plugin, events } = recorder();
  return { plugin, events };
}
