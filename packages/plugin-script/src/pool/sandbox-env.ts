import type { EnvironmentVariables } from '@agentest/kernel';
/**
 * What user code in the sandbox sees as `process.env`. Connector keys live in the environment, and a
 * script, hook or `test()` file has no business reading them, so the worker threads get only the
 * variables the config names (`script.env`) plus these harmless ones.
 */
export const DEFAULT_SANDBOX_ENV = ['TZ', 'LANG', 'NODE_ENV'] as const;

/** The worker threads' environment: the default names and `names`, those that are set, from `from`. */
export function sandboxEnv(
  names: readonly string[] = [],
  from: EnvironmentVariables = process.env,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of [...DEFAULT_SANDBOX_ENV, ...names]) {
    const value = from[name];
    if (value !== undefined) env[name] = value;
  }
  return env;
}
