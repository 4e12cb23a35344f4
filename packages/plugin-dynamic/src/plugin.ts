import type { AgentestPlugin } from '@agentest/kernel';
import { dynamicCaseSimulator, executeDynamicCase } from './execute-dynamic-case.js';

export const PLUGIN_NAME = 'agentest:dynamic';

/** Runs `dynamic` cases: a simulated user through ordered checkpoints (Yao's dynamic mode). */
export default function dynamicPlugin(): AgentestPlugin {
  return {
    name: PLUGIN_NAME,
    apply({ hooks }) {
      hooks.execute.for('dynamic').tapPromise({ name: PLUGIN_NAME, helpers: dynamicCaseSimulator }, executeDynamicCase);
    },
  };
}
