import * as z from 'zod';
import { AgentestError, registerSecret } from '@agentest/kernel';
import { parseDuration } from '@agentest/common';
import type { ConnectorConfig } from './types.js';
import { SECRET_HEADERS } from './http-log.js';
import { buildApiUrl, envName, expandEnv } from './env.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry.js';

/** Keys of a connector definition that describe it rather than configure it. */
const DESCRIPTIVE_KEYS = new Set(['type', 'name', 'label', 'version', 'description', 'options']);

/** Request parameters a connector may set for every call (Yao: `max_tokens`, `temperature`, …). */
const BODY_PARAMS = [
  'max_tokens',
  'max_completion_tokens',
  'temperature',
  'top_p',
  'top_k',
  'frequency_penalty',
  'presence_penalty',
  'seed',
  'stop',
  'stop_sequences',
  'reasoning_effort',
  'response_format',
  'parallel_tool_calls',
  'thinking',
] as const;

const optionsShape = z.looseObject({
  host: z.string().optional(),
  proxy: z.string().optional(),
  model: z.string().optional(),
  key: z.string().optional(),
  max_tokens: z.number().int().positive().optional(),
  temperature: z.number().min(0).max(2).optional(),
  extra_body: z.record(z.string(), z.unknown()).optional(),
  headers: z.record(z.string(), z.string()).optional(),
  stream: z.boolean().optional(),
  concurrency: z.number().int().min(1).optional(),
  retries: z.number().int().min(0).max(20).optional(),
  rate_limit_retries: z.number().int().min(0).max(50).optional(),
  backoff_ms: z.number().min(0).optional(),
  max_backoff_ms: z.number().min(0).optional(),
  max_retry_after_ms: z.number().min(0).optional(),
  timeout: z.union([z.number().positive(), z.string()]).optional(),
  max_reply_bytes: z.number().int().positive().optional(),
});

/** A reply past this many bytes is an error rather than a run that holds it all in memory. */
export const DEFAULT_MAX_REPLY_BYTES = 10 * 1024 * 1024;

/** Everything an OpenAI or Anthropic client needs, validated and with `$ENV.` expanded. */
export interface LlmSettings {
  id: string;
  type: 'openai' | 'anthropic';
  host: string;
  model: string;
  /** Absent for local servers that need none; never logged. */
  key?: string;
  /** Defaults merged into every request body (connector params, then `extra_body`). */
  body: Record<string, unknown>;
  headers: Record<string, string>;
  stream: boolean;
  concurrency: number;
  retry: RetryPolicy;
  timeoutMs?: number;
  /** Largest reply body read, decoded (`max_reply_bytes`, default 10 MB). */
  maxReplyBytes: number;
}

const DEFAULT_HOSTS = { openai: 'https://api.openai.com', anthropic: 'https://api.anthropic.com' } as const;

/**
 * A connector definition may put its settings under `options` (Yao's `.conn.yao`) or at the top level
 * (`{ type: 'openai', model, key }` in `agentest.config.ts`); `options` wins when both set a key.
 */
export function connectorOptions(config: ConnectorConfig): Record<string, unknown> {
  const top = Object.fromEntries(Object.entries(config).filter(([k]) => !DESCRIPTIVE_KEYS.has(k)));
  return { ...top, ...(config.options ?? {}) };
}

export function formatZodIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => `${issue.path.length ? `${issue.path.join('.')}: ` : ''}${issue.message}`)
    .join('; ');
}

/**
 * Validates an `openai`/`anthropic` connector and resolves its secrets now, before any case runs: a
 * key named as `$ENV.X` with X unset, or no key at all for the vendor's own host, is SECRET_MISSING.
 * A local server (Ollama, vLLM, llama.cpp, the fake server) may go without a key.
 */
export function resolveLlmSettings(
  id: string,
  type: 'openai' | 'anthropic',
  config: ConnectorConfig,
  env: NodeJS.ProcessEnv,
): LlmSettings {
  const where = `connectors.${id}`;
  const parsed = optionsShape.safeParse(connectorOptions(config));
  if (!parsed.success)
    throw new AgentestError('CONNECTOR_INVALID', `connector "${id}" (${type}): ${formatZodIssues(parsed.error)}`, {
      where,
    });
  const options = parsed.data;

  const host = resolveHost(id, type, options, env, where);
  const model = resolveValue(id, 'model', options.model, env);
  if (!model)
    throw new AgentestError(
      'CONNECTOR_INVALID',
      `connector "${id}" (${type}) has no model; set options.model (e.g. "gpt-4o-mini")`,
      { where: `${where}.model` },
    );

  const key = resolveKey(id, type, options, host, env, where);
  registerSecret(key);
  const headers = resolveHeaders(id, options.headers ?? {}, env);
  return {
    id,
    type,
    host,
    model,
    key,
    body: requestBody(type, options),
    headers,
    stream: options.stream ?? false,
    concurrency: options.concurrency ?? 16,
    retry: retryPolicy(options),
    timeoutMs: timeoutOf(id, options.timeout, where),
    maxReplyBytes: options.max_reply_bytes ?? DEFAULT_MAX_REPLY_BYTES,
  };
}

type Options = z.infer<typeof optionsShape>;
type LlmType = LlmSettings['type'];

/** The server's address: `host` (or Yao's `proxy`), else the provider's own; it must make a URL. */
function resolveHost(id: string, type: LlmType, options: Options, env: NodeJS.ProcessEnv, where: string): string {
  const hostSetting = options.host ?? options.proxy;
  const host = resolveValue(id, 'host', hostSetting, env) || DEFAULT_HOSTS[type];
  try {
    new URL(buildApiUrl(host, ''));
  } catch {
    throw new AgentestError(
      'CONNECTOR_INVALID',
      `connector "${id}" (${type}): host "${host}" is not a URL; use e.g. "http://127.0.0.1:11434"`,
      { where: `${where}.host` },
    );
  }
  return host;
}

/** The API key, registered as a secret; missing is an error when it names a variable or the provider's own host. */
function resolveKey(
  id: string,
  type: LlmType,
  options: Options,
  host: string,
  env: NodeJS.ProcessEnv,
  where: string,
): string | undefined {
  const key = expandEnv(options.key ?? '', env) || undefined;
  const keyVariable = envName(options.key);
  if (!key && keyVariable !== undefined) {
    throw new AgentestError(
      'SECRET_MISSING',
      `connector "${id}" needs an API key: the environment variable ${keyVariable} is not set (key: "$ENV.${keyVariable}"); export ${keyVariable}, or use a "mock" connector`,
      { where: `${where}.key` },
    );
  }
  if (!key && new URL(host.replace(/\/?$/, '/')).hostname === new URL(DEFAULT_HOSTS[type]).hostname) {
    throw new AgentestError(
      'SECRET_MISSING',
      `connector "${id}" talks to ${DEFAULT_HOSTS[type]} but has no key; set options.key (e.g. "$ENV.${type === 'openai' ? 'OPENAI_API_KEY' : 'ANTHROPIC_API_KEY'}")`,
      { where: `${where}.key` },
    );
  }

  return key;
}

/** The request parameters the config sets (`temperature`, …) plus `extra_body`. */
function requestBody(type: LlmType, options: Options): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const name of BODY_PARAMS) {
    // Yao's `thinking` is Anthropic's parameter; OpenAI-compatible servers reject it.
    if (options[name] !== undefined && !(type === 'openai' && name === 'thinking')) body[name] = options[name];
  }
  Object.assign(body, options.extra_body);
  return body;
}

function retryPolicy(options: Options): LlmSettings['retry'] {
  return {
    retries: options.retries ?? DEFAULT_RETRY_POLICY.retries,
    rateLimitRetries: options.rate_limit_retries ?? DEFAULT_RETRY_POLICY.rateLimitRetries,
    backoffMs: options.backoff_ms ?? DEFAULT_RETRY_POLICY.backoffMs,
    maxBackoffMs: options.max_backoff_ms ?? DEFAULT_RETRY_POLICY.maxBackoffMs,
    maxRetryAfterMs: options.max_retry_after_ms ?? DEFAULT_RETRY_POLICY.maxRetryAfterMs,
  };
}

/**
 * Header values may be `$ENV.NAME` (an unset variable is SECRET_MISSING). Expanded values and the
 * values of credential headers (`Authorization`, `x-api-key`, …) are registered as secrets, the
 * credential alone too when it follows a scheme (`Bearer …`).
 */
function resolveHeaders(id: string, headers: Record<string, string>, env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const variable = envName(value);
    const expanded = expandEnv(value, env);
    if (variable !== undefined && !expanded) {
      throw new AgentestError(
        'SECRET_MISSING',
        `connector "${id}": header ${name} is "$ENV.${variable}" but ${variable} is not set; export ${variable}`,
        { where: `connectors.${id}.headers.${name}` },
      );
    }
    if (variable !== undefined || SECRET_HEADERS.has(name.toLowerCase())) {
      registerSecret(expanded);
      registerSecret(/^\w+\s+(\S+)$/.exec(expanded)?.[1]);
    }
    out[name] = expanded;
  }
  return out;
}

/** `$ENV.` expansion for host and model: naming an unset variable is a config error, not a silent default. */
function resolveValue(id: string, field: 'host' | 'model', value: string | undefined, env: NodeJS.ProcessEnv): string {
  if (value === undefined) return '';
  const expanded = expandEnv(value, env);
  const variable = envName(value);
  if (!expanded && variable !== undefined) {
    throw new AgentestError(
      'CONNECTOR_INVALID',
      `connector "${id}": ${field} is "$ENV.${variable}" but ${variable} is not set; export it or write the ${field} in the connector`,
      { where: `connectors.${id}.${field}` },
    );
  }
  return expanded;
}

function timeoutOf(id: string, value: number | string | undefined, where: string): number | undefined {
  if (value === undefined || typeof value === 'number') return value;
  try {
    return parseDuration(value, `${where}.timeout`);
  } catch {
    throw new AgentestError(
      'CONNECTOR_INVALID',
      `connector "${id}": timeout "${value}" is not a duration (use e.g. "30s" or milliseconds)`,
      { where: `${where}.timeout` },
    );
  }
}
