import type { RunPolicy } from '@agentest/kernel';
import type { Flags } from './flags.js';
import type { NormalisedConfig } from './config/normalise-config.js';

/** How many runs each case gets: a fixed number, or up to a maximum under the sequential test. */
export interface RunsSetting {
  runs?: number;
  runPolicy?: RunPolicy;
}

/**
 * `--runs auto[:max]` (or `test.runs: 'auto'` in the config): Wald's SPRT decides per case when the
 * answer is clear, with the config's `test.sequential` settings; a number on the flag overrides the
 * config's `auto`, and `auto` on the flag the config's number.
 */
export async function runsSetting(
  flags: Pick<Flags, 'runs' | 'autoMax'>,
  config: NormalisedConfig,
): Promise<RunsSetting> {
  const runs = flags.runs ?? config.test.runs;
  if (runs !== 'auto') return runs === undefined ? {} : { runs };
  const { sprtRunPolicy, SEQUENTIAL_DEFAULTS } = await import('@agentest/compare');
  const { max, ...sprt } = config.test.sequential ?? {};
  return { runs: flags.autoMax ?? max ?? SEQUENTIAL_DEFAULTS.max, runPolicy: sprtRunPolicy(sprt) };
}
