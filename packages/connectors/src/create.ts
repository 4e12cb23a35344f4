import { AgentestError, type EnvironmentVariables } from '@agentest/kernel';
import type { ConnectorConfig } from './types.js';
import { AnthropicChatClient } from './anthropic-client.js';
import { MockChatClient } from './mock-client.js';
import { OpenAIChatClient } from './openai-client.js';
import { connectorOptions, resolveLlmSettings } from './settings.js';
import type { ChatClient } from './types.js';

export const CONNECTOR_TYPES = ['openai', 'anthropic', 'mock'] as const;

/**
 * Validates a connector definition and builds its client. Everything that can be wrong with the
 * config (unknown type, no model, a `$ENV.` key whose variable is unset) throws here, before the
 * run starts; the SDKs themselves are only imported on the first call.
 */
export function createChatClient(
  id: string,
  config: ConnectorConfig,
  env: EnvironmentVariables = process.env,
): ChatClient {
  if (!config || typeof config !== 'object' || typeof config.type !== 'string') {
    throw new AgentestError(
      'CONNECTOR_INVALID',
      `connector "${id}" has no "type"; use one of ${CONNECTOR_TYPES.join(', ')}`,
      { where: `connectors.${id}` },
    );
  }
  switch (config.type) {
    case 'openai':
      return new OpenAIChatClient(resolveLlmSettings(id, 'openai', config, env));
    case 'anthropic':
      return new AnthropicChatClient(resolveLlmSettings(id, 'anthropic', config, env));
    case 'mock':
      return new MockChatClient(id, connectorOptions(config));
    default:
      throw new AgentestError(
        'CONNECTOR_INVALID',
        `connector "${id}" has type "${config.type}", which cannot chat; use one of ${CONNECTOR_TYPES.join(', ')}`,
        { where: `connectors.${id}.type` },
      );
  }
}
