import type { AgentestPlugin, RunEvent } from '@agentest/kernel';
import { attachServices } from './services.js';
import { CassetteSession, type CassetteOptions } from './session.js';
import { PriceTable } from './usage/prices.js';
import { UsageMeter, type Budget } from './usage/meter.js';

/** The plugins' names, in messages too. */
export const CASSETTES_PLUGIN_NAME = 'agentest:cassettes';
export const USAGE_PLUGIN_NAME = 'agentest:usage';

/** Before every reporter, so each of them hears results and the summary with their usage. */
const BEFORE_REPORTERS = -100;

/**
 * Cassettes for a run: model and tool calls are recorded to and replayed from one JSONL file per case
 * (see docs/replay.md). Each case's file is written when its result comes, and the run waits for the
 * files at teardown.
 */
export function cassettesPlugin(options: CassetteOptions): AgentestPlugin {
  let session: CassetteSession | undefined;
  return {
    name: CASSETTES_PLUGIN_NAME,
    apply({ hooks }) {
      hooks.setup.tap(CASSETTES_PLUGIN_NAME, (plan) => {
        session = new CassetteSession(options);
        attachServices(plan, { cassettes: session });
      });
      hooks.report.tap({ name: CASSETTES_PLUGIN_NAME, stage: BEFORE_REPORTERS }, (event: RunEvent) => {
        if (event.type === 'result') session?.finish(event.id);
      });
      hooks.teardown.tapPromise(CASSETTES_PLUGIN_NAME, async () => {
        await session?.close();
      });
    },
  };
}

export interface UsageOptions extends Budget {
  /** The config's `prices`: connector id, `<type>/<model>` or model → `{ input, output }` USD per million tokens. */
  prices?: Record<string, unknown>;
}

/**
 * Tokens and cost of every model call, per case (`result.usage`) and in total (`summary.usage`), in
 * every report; with `maxCost` / `maxTokens`, a budget that stops the run from starting new cases.
 */
export function usagePlugin(options: UsageOptions = {}): AgentestPlugin {
  const prices = new PriceTable(options.prices);
  let meter: UsageMeter | undefined;
  return {
    name: USAGE_PLUGIN_NAME,
    apply({ hooks, halt }) {
      hooks.setup.tap(USAGE_PLUGIN_NAME, (plan) => {
        meter = new UsageMeter(prices, options, (reason) => halt?.(reason));
        attachServices(plan, { meter });
      });
      hooks.report.tap({ name: USAGE_PLUGIN_NAME, stage: BEFORE_REPORTERS }, (event: RunEvent) => {
        if (!meter) return;
        if (event.type === 'result') {
          const usage = meter.takeCase(event.id, event.runs);
          if (usage) event.usage = usage;
        } else if (event.type === 'summary') event.usage = meter.runTotals();
      });
    },
  };
}
