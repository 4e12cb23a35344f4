type Connectors = typeof import('@agentest/connectors');

/**
 * The connectors package pulls in the OpenAI and Anthropic SDKs. It is loaded on first use, so runs
 * with `echo`, adapters or plain agents (benchmarks, CI smoke tests) never pay for it.
 */
let connectors: Promise<Connectors> | undefined;

export function loadConnectors(): Promise<Connectors> {
  connectors ??= import('@agentest/connectors').catch((error: unknown) => {
    connectors = undefined;
    throw error;
  });
  return connectors;
}
