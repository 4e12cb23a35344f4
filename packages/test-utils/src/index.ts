export { countAbortControllers } from './abort-controllers.js';
export { INLINE, runPlan, testCase } from './plan.js';
export {
  agentExecutor,
  combine,
  containsAssertion,
  echoAgent,
  equalsAssertion,
  inlineCases,
  inlinePlugins,
  type ScriptedRun,
} from './plugins.js';
export { recorder, runKernel, type Recording, type ReportEvent } from './run.js';
export { findCycle, importGraph } from './import-graph.js';
export { MODULE_LOAD_RECORDER } from './module-loads.js';
