/*
 * `@agentest/kernel/errors`: the error catalogue and the helpers of its messages (did-you-mean, the
 * catalogue as docs/errors.md) alone, without the kernel's run-time (tapable, debug). What a command's
 * declaration needs to refuse a flag, loaded by `agentest --help` and `--version`, which must start
 * about as fast as Node itself.
 */
export {
  AgentestError,
  AgentestTypeError,
  ERROR_CATALOGUE,
  errorMessage,
  isAgentestError,
  type ErrorCode,
} from './errors.js';
export { didYouMean, editDistance } from './did-you-mean.js';
export { renderErrorCatalogue } from './error-docs.js';
