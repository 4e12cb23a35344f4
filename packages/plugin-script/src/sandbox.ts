/**
 * The sandbox's options and its shared pool, without the rest of the package (the script plugin,
 * coverage, compilation helpers): what the kit and Yao plugins take from here when they start.
 */
export { sandboxOptions, sandboxOptionsSchema, type SandboxOptions } from './options.js';
export { acquireScriptPool } from './pool/shared-pool.js';
export type { ScriptPool, ScriptPoolOptions } from './pool/types.js';
export type { ProcessStub } from './resolve/process.js';
