import { agents } from './plugin.js';

export default agents;
export { agents, PLUGIN_NAME } from './plugin.js';
export { defineAdapter, defineAgent, type AgentDefinition } from './define.js';
export { adapterToAgent, type Adapter } from './adapter.js';
export { adapterInput, type AdapterInput } from './adapter-input.js';
export { gradeEvaluation, type Grade, type StandardResult } from './grade.js';
export { echoAgent } from './echo.js';
export { executeAgentCase } from './execute-agent-case.js';
export type { AgentsPluginOptions, AgentConfig } from './options.js';
export { yaoPlanContext, buildTestContext } from './test-context.js';
