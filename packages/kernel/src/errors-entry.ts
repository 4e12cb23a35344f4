/*
 * `@agentest/kernel/errors`: the error catalogue and did-you-mean alone, without the kernel's run-time
 * (tapable, debug, exact numbers). What a command's declaration needs to refuse a flag, loaded by
 * `agentest --help` and `--version`, which must start about as fast as Node itself.
 */
export { AgentestError, ERROR_CATALOGUE, errorMessage, isAgentestError, type ErrorCode } from './errors.js';
export { didYouMean } from './did-you-mean.js';
