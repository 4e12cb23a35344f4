// The built-in plugins that declare config sections (`script`, `kit`, `yao`) by augmentation: referenced so
// that every program that sees `AgentestConfig` sees their keys too.
/// <reference types="@agentest/plugin-script" preserve="true" />
/// <reference types="@agentest/plugin-kit" preserve="true" />
/// <reference types="@agentest/plugin-yao-resolver" preserve="true" />
import type { ConnectorConfig } from '@agentest/connectors';
import type { AgentestConfigExtensions, AgentestPlugin, Reporter } from '@agentest/kernel';
import type { PluginEntry } from './plugin-specs.js';
import type { AgentConfig } from '@agentest/plugin-agent';
import type { CoverageConfig } from '@agentest/plugin-script/coverage-options';

/**
 * A reporter: a built-in name, a package installed where the config is, a `./path`, `[name, options]`, a
 * factory (called with the options every reporter gets: `cwd`, `verbose`, `color`), a Reporter or a plugin.
 */
export type ReporterEntry =
  | string
  | [string, Record<string, unknown>]
  | ((options: Record<string, unknown>) => AgentestPlugin)
  | Reporter
  | AgentestPlugin;

/**
 * `agentest.config.ts`. Every key is optional; flags override what is set here. There is no index
 * signature: a key is either agentest's own or declared by a plugin (`AgentestConfigExtensions`, by module
 * augmentation, as the script, kit and Yao plugins declare `script`, `kit` and `yao`), so a misspelt key
 * fails `tsc` as it fails the run.
 */
export interface AgentestConfig extends AgentestConfigExtensions {
  /**
   * Configs this one builds on (a path relative to this file, a package name, or a list, applied in order):
   * objects merge deeply, `plugins` and `reporters` add up, other values and lists are replaced; see docs/cli.md.
   */
  extends?: string | string[];
  /**
   * Plugins, applied before the built-in ones: a plugin object, a preset (an array of them), the name of a
   * package installed where the config is or a `./path` (its default export is a factory), or `[name, options]`.
   */
  plugins?: PluginEntry[];
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
    /** Runs per case, or `'auto'`: Wald's sequential test per case, up to `sequential.max` runs. */
    runs?: number | 'auto';
    /** `--runs auto`: healthy pass rate p0 (0.9), degraded p1 (0.6), alpha (0.05), beta (0.2), max runs (10). */
    sequential?: { p0?: number; p1?: number; alpha?: number; beta?: number; max?: number };
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
   * The run history (`.agentest/history/` beside the config): off with `enabled: false`, another folder
   * with `dir`, and how much is kept: the newest `maxRuns` runs (200) within `maxBytes` (20 MB).
   */
  history?: { enabled?: boolean; dir?: string; maxRuns?: number; maxBytes?: number };
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
  /**
   * Coverage of the app's scripts and hooks (docs/coverage.md): on for every run with `enabled` (`--coverage`
   * turns it on for one), the files counted, the reports and their folder, and minimum percentages.
   */
  coverage?: CoverageConfig;
}

/** Only adds types. */
export function defineConfig(config: AgentestConfig): AgentestConfig {
  return config;
}
