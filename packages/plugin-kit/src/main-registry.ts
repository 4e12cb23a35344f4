import { callerFile } from './caller-file.js';
import { createRegistry } from './define-test.js';

/**
 * The main thread's registry: what `import { test } from '@agentest/test'` fills when a script imports
 * test files itself (agentest-kit's evaluator.js). The CLI never reads it; it runs test files in the
 * sandbox, where each file gets a registry of its own.
 */
const registry = createRegistry(callerFile);

export const test = registry.test;
export const skip = registry.test.skip;
export const todo = registry.test.todo;
export const getRegistered = registry.getRegistered;
export const clearRegistered = registry.clear;
