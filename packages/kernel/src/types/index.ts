export type * from './agent.js';
export type * from './context.js';
export type * from './message.js';
export type * from './result.js';
export type * from './run.js';
export type * from './test-case.js';
export type * from './coverage.js';
export type * from './env.js';
