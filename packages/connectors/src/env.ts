import type { EnvironmentVariables } from '@agentest/kernel';
/**
 * Yao's `$ENV.NAME` rule: only a value that *starts with* `$ENV.` is replaced, by the whole variable;
 * an unset variable gives `''`. Anything else is returned unchanged.
 */
export function expandEnv(value: string, env: EnvironmentVariables = process.env): string {
  const name = envName(value);
  return name === undefined ? value : (env[name] ?? '');
}

/** The variable a `$ENV.NAME` value names, or undefined when the value is literal. */
export function envName(value: unknown): string | undefined {
  return typeof value === 'string' && value.startsWith('$ENV.') ? value.slice('$ENV.'.length) : undefined;
}

/**
 * Yao's `BuildAPIURL`: a host without a trailing `/` gets `/v1` before the endpoint
 * (`https://api.deepseek.com` → `…/v1/chat/completions`); a trailing `/` means the host already holds
 * the whole prefix and is used verbatim (`https://proxy/openai/` → `…/openai/chat/completions`).
 */
export function buildApiUrl(host: string, endpoint: string): string {
  const path = endpoint && !endpoint.startsWith('/') ? `/${endpoint}` : endpoint;
  if (host.endsWith('/')) return host + path.replace(/^\//, '');
  return `${host}/v1${path}`;
}
