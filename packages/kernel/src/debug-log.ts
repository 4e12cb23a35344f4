import { createRequire } from 'node:module';
import type { Debug, Debugger } from 'debug';

let loaded: Debug | undefined;

/**
 * The `debug` package, required on first use: it inspects the terminal and the environment as it loads,
 * a cost every start-up would pay while most runs never write a `DEBUG=agentest:*` line.
 */
export function loadDebug(): Debug {
  return (loaded ??= createRequire(import.meta.url)('debug') as Debug);
}

/**
 * A `DEBUG=<namespace>` logger, as `createDebug(namespace)` makes, that loads `debug` when it writes its
 * first line. `debug` reads `DEBUG` from the environment as it loads, which the process set at its start.
 */
export function debugLogger(namespace: string): (formatter: unknown, ...args: unknown[]) => void {
  let log: Debugger | undefined;
  return (formatter, ...args) => (log ??= loadDebug()(namespace))(formatter, ...args);
}
