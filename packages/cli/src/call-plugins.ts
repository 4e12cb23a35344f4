import type { AgentestPlugin, EnvironmentVariables } from '@agentest/kernel';
import { isCi } from '@agentest/common';
import { cassettesPlugin, usagePlugin, type CassetteMode } from '@agentest/cassettes';
import type { NormalisedConfig } from './config/normalise-config.js';

/** What the command line says about cassettes and budgets; each value wins over the config's. */
export interface CallOptions {
  cassetteMode?: CassetteMode;
  replayTiming?: boolean;
  maxCost?: number;
  maxTokens?: number;
  env?: EnvironmentVariables;
}

/**
 * The plugins that watch model and tool calls: cassettes (always on, so that lockdown applies on CI
 * without a flag) and the usage meter (tokens and cost in every report, and the budget).
 */
export function callPlugins(config: NormalisedConfig, cwd: string, options: CallOptions = {}): AgentestPlugin[] {
  const mode = options.cassetteMode ?? config.cassettes.mode;
  const maxCost = options.maxCost ?? config.budget.maxCost;
  const maxTokens = options.maxTokens ?? config.budget.maxTokens;
  return [
    cassettesPlugin({
      ...(mode ? { mode } : {}),
      ...(config.cassettes.dir ? { dir: config.cassettes.dir } : {}),
      cwd,
      ci: isCi(options.env ?? process.env),
      timing: options.replayTiming === true,
    }),
    usagePlugin({
      prices: config.prices,
      ...(maxCost !== undefined ? { maxCost } : {}),
      ...(maxTokens !== undefined ? { maxTokens } : {}),
    }),
  ];
}
