import { kit } from './plugin.js';

export default kit;
export { kit, PLUGIN_NAME } from './plugin.js';
export type { KitOptions } from './options.js';
export { test, skip, todo, getRegistered, clearRegistered } from './main-registry.js';
export { parseCasesJson, readCasesJson } from './cases-json.js';
export { discoverKitInput, DEFAULT_INCLUDE } from './discover.js';
export type {
  JsonCase,
  TestData,
  RegisteredTest,
  RunInput,
  RunResult,
  TestFn,
  TestFnContext,
  CaseStatus,
} from './types.js';
export * from './api/index.js';
export { KitLayout, registerKitLayout } from './console/kit-layout.js';
export { expect, AssertionError } from '@agentest/expect';
export { defineAdapter } from '@agentest/plugin-agent';
