import type { AgentestPlugin } from './plugin.js';
import type { Agent } from './types/agent.js';
import type { Reporter } from './reporter.js';

/** agentest-kit's adapter contract: `call` the system, `evaluate` the reply (may be async). */
export interface Adapter<Input = unknown, CallResult = unknown, Evaluation = unknown> {
  call(input: Input): Promise<CallResult> | CallResult;
  evaluate?(callResult: CallResult, input: Input): Promise<Evaluation> | Evaluation;
}

/** A connector definition, as in `connectors/*.conn.yao` or the config's `connectors`. */
export interface ConnectorConfig {
  type: 'openai' | 'anthropic' | 'mock' | (string & {});
  name?: string;
  label?: string;
  options?: Record<string, unknown>;
  [key: string]: unknown;
}

export type AgentConfig =
  | Adapter
  | (Pick<Agent, 'run'> & Partial<Agent>)
  | { connector: string; prompts?: { role: string; content: string }[]; options?: Record<string, unknown> };

export type ReporterEntry = string | [string, Record<string, unknown>] | Reporter | AgentestPlugin;

/** `agentest.config.ts`. Every key is optional; flags override what is set here. */
export interface AgentestConfig {
  plugins?: (AgentestPlugin | false | null | undefined | (AgentestPlugin | false | null | undefined)[])[];
  reporters?: ReporterEntry[];
  agents?: Record<string, AgentConfig>;
  connectors?: Record<string, ConnectorConfig>;
  /**
   * Folders with an agentest config of their own: `agentest test` without `-i` runs each one's `test.suites`
   * there, with its config, after this config's own suites. Relative to this config's folder.
   */
  projects?: string[];
  test?: {
    /**
     * What `agentest test` runs when `-i` is not given, one suite after another in this config's folder: an
     * input as `-i` takes it, or `{ input, agent }` with the agent `-n` would name.
     */
    suites?: (string | { input: string; agent?: string })[];
    parallel?: number;
    /** A Go duration with a unit: `"30s"`, `"2m30s"` (a bare number is an error). */
    timeout?: string;
    runs?: number;
    user?: string;
    team?: string;
    ctx?: string;
    failFast?: boolean;
    /** Glob(s) for `test()` files when `-i` names a directory. */
    include?: string | string[];
  };
  thresholds?: Record<string, number>;
  /** The JSONL loader: keys a team's cases carry besides the case fields, the nesting limit, the longest line. */
  jsonl?: { extraKeys?: string[]; maxDepth?: number; maxLineBytes?: number };
  /** `file://` content parts: folders they may read besides the suite's and the app root (relative to the config), and the size cap in bytes. */
  files?: { allow?: string[]; maxBytes?: number };
  /**
   * Cassettes (docs/replay.md): the mode when no flag says (`off`, `record`, `replay`, `auto`), and a
   * folder for them all instead of `__cassettes__/` beside each suite.
   */
  cassettes?: { mode?: 'off' | 'record' | 'replay' | 'auto'; dir?: string };
  /** USD per million tokens by connector id, `<type>/<model>` or model, over the built-in list prices. */
  prices?: Record<string, { input: number; output: number }>;
  /**
   * Stop starting cases once live model calls have cost this much (USD) or used this many tokens
   * (`--max-cost`, `--max-tokens` win).
   */
  budget?: { maxCost?: number; maxTokens?: number };
  /** Options for plugins keyed by plugin name; free-form. */
  [key: string]: unknown;
}

/** Only adds types. */
export function defineConfig(config: AgentestConfig): AgentestConfig {
  return config;
}
