/*
 * `@agentest/kernel/run-scope`: the tie between a case run and the calls made for it, carried by the
 * run's abort signal. For connectors, judges and executors that attribute a model call to its case
 * (cassettes, usage accounting), or that derive a signal of their own and must keep the tie.
 */
export { runScopeOf, bindRunScope, inheritRunScope, type RunScope, type CallRole } from './run-scope.js';
