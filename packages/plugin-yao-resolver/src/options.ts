import * as z from 'zod';
import { AgentestError, type EnvironmentVariables } from '@agentest/kernel';
import type { ConnectorConfig } from '@agentest/connectors';
import {
  sandboxOptions,
  sandboxOptionsSchema,
  type ProcessStub,
  type SandboxOptions,
  type ScriptPoolOptions,
} from '@agentest/plugin-script/sandbox';

export interface YaoResolverOptions {
  /** The Yao app root; by default found by walking up from the input (or the working directory). */
  root?: string;
  /** Connectors declared in the config; they win over `connectors/**\/*.conn.yao` with the same id. */
  connectors?: Record<string, ConnectorConfig>;
  /** Environment for `$ENV.` expansion and secrets (default: `process.env`). */
  env?: Record<string, string | undefined>;
  /** Limit for one Create or Next hook call (default 5 minutes; the case's timeout still applies). */
  hookTimeoutMs?: number;
  /**
   * Stand-ins for the Yao processes hooks call that need a Yao server (`models.*`, `utils.*`, …), by
   * process name: `{ module: './stubs/user.ts', export?: 'Find' }` (a function run in the sandbox;
   * the export defaults to the name's last part; relative to the working directory) or `{ value }`.
   */
  processes?: Record<string, ProcessStub>;
  /**
   * The script sandbox's threads, memory and the environment variables hooks may read (`script` options of the config).
   */
  sandbox?: SandboxOptions;
  /** The ids of the config's agents, listed next to the assistants when an id matches nothing. */
  configAgents?: string[];
}

export interface ValidatedOptions {
  root?: string;
  connectors: Record<string, ConnectorConfig>;
  env: EnvironmentVariables;
  hookTimeoutMs: number;
  processes: Record<string, ProcessStub>;
  sandbox: ScriptPoolOptions;
  configAgents: string[];
}

const processStub = z.union(
  [
    z.strictObject({ module: z.string().min(1), export: z.string().min(1).optional() }),
    z.strictObject({ value: z.unknown() }),
  ],
  { error: 'expected { module: "./stubs/file.ts", export?: "Function" } or { value: <data> }' },
);

const schema = z.strictObject({
  root: z.string().min(1).optional(),
  connectors: z.record(z.string(), z.looseObject({ type: z.string().min(1) })).optional(),
  env: z.record(z.string(), z.string().optional()).optional(),
  hookTimeoutMs: z.number().int().positive().optional(),
  processes: z.record(z.string().min(1), processStub).optional(),
  sandbox: sandboxOptionsSchema.optional(),
  configAgents: z.array(z.string()).optional(),
});

export function validateOptions(options: unknown): ValidatedOptions {
  const parsed = schema.safeParse(options ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const key = issue.path.length ? issue.path.join('.') : '(options)';
    throw new AgentestError('PLUGIN_INVALID', `agentest:yao option ${key}: ${issue.message}`, {
      where: `yaoResolver({ ${String(issue.path[0] ?? '')} })`,
    });
  }
  const {
    root,
    connectors = {},
    env,
    hookTimeoutMs = 5 * 60_000,
    processes = {},
    sandbox = {},
    configAgents = [],
  } = parsed.data;
  return {
    ...(root ? { root } : {}),
    connectors: connectors as Record<string, ConnectorConfig>,
    env: env ?? process.env,
    hookTimeoutMs,
    processes: processes as Record<string, ProcessStub>,
    sandbox: sandboxOptions(sandbox),
    configAgents,
  };
}

// The config's `yao` section is this plugin's options; connectors and the sandbox come from the config's own keys.
declare module '@agentest/kernel' {
  interface AgentestConfigExtensions {
    /** The Yao assistant resolver: the app root, hook limits and process stand-ins. */
    yao?: Omit<YaoResolverOptions, 'connectors' | 'sandbox' | 'configAgents'>;
  }
}
