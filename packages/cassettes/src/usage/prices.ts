import { AgentestError } from '@agentest/kernel';

/** USD per million tokens, for the prompt (input) and the completion (output). */
export interface Price {
  input: number;
  output: number;
}

/** When the default prices below were taken from the vendors' published list prices. */
export const DEFAULT_PRICES_DATE = '2025-06-01';

/**
 * List prices of common models on DEFAULT_PRICES_DATE (USD per million tokens, standard tier, no
 * caching or batch discounts). A model name matches exactly, else by its longest listed prefix, so
 * `gpt-4o-mini-2024-07-18` is priced as `gpt-4o-mini`. Prices change: set yours in the config.
 */
export const DEFAULT_PRICES: Readonly<Record<string, Price>> = {
  'gpt-4o': { input: 2.5, output: 10 },
  'gpt-4o-mini': { input: 0.15, output: 0.6 },
  'gpt-4.1': { input: 2, output: 8 },
  'gpt-4.1-mini': { input: 0.4, output: 1.6 },
  'gpt-4.1-nano': { input: 0.1, output: 0.4 },
  'o3-mini': { input: 1.1, output: 4.4 },
  'o4-mini': { input: 1.1, output: 4.4 },
  'claude-opus-4': { input: 15, output: 75 },
  'claude-sonnet-4': { input: 3, output: 15 },
  'claude-3-7-sonnet': { input: 3, output: 15 },
  'claude-3-5-sonnet': { input: 3, output: 15 },
  'claude-3-5-haiku': { input: 0.8, output: 4 },
  'claude-3-haiku': { input: 0.25, output: 1.25 },
  'deepseek-chat': { input: 0.27, output: 1.1 },
  'deepseek-reasoner': { input: 0.55, output: 2.19 },
};

/**
 * The price table of a run: the config's `prices` over the defaults. A config key is a connector id
 * (`openai.gpt4o`), `<type>/<model>` (`openai/gpt-4o-mini`) or a model name; the first that matches,
 * in that order, prices the call.
 */
export class PriceTable {
  private readonly own: Map<string, Price>;

  constructor(prices: Record<string, unknown> = {}) {
    this.own = new Map(Object.entries(prices).map(([key, value]) => [key, checkPrice(key, value)]));
  }

  priceOf(connector: string, type: string, model: string): Price | undefined {
    return (
      this.own.get(connector) ??
      this.own.get(`${type}/${model}`) ??
      this.own.get(model) ??
      byPrefix(model, (name) => DEFAULT_PRICES[name])
    );
  }
}

/** The longest known name that `model` starts with (`gpt-4o-mini-2024-07-18` → `gpt-4o-mini`). */
function byPrefix(model: string, lookup: (name: string) => Price | undefined): Price | undefined {
  for (let end = model.length; end > 0; end--) {
    const price = lookup(model.slice(0, end));
    if (price) return price;
  }
  return undefined;
}

function checkPrice(key: string, value: unknown): Price {
  const price = value as Partial<Price> | null;
  const ok = (n: unknown) => typeof n === 'number' && Number.isFinite(n) && n >= 0;
  if (!price || typeof price !== 'object' || !ok(price.input) || !ok(price.output))
    throw new AgentestError(
      'CONFIG_INVALID',
      `prices["${key}"] must be { input, output } in USD per million tokens, e.g. { input: 0.15, output: 0.6 }`,
      { where: `prices.${key}` },
    );
  return { input: price.input!, output: price.output! };
}
