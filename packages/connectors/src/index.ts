export type { ChatClient, ChatRequest, ConnectorConfig } from './types.js';
export { createChatClient, CONNECTOR_TYPES } from './create.js';
export { connectorAgent } from './agent.js';
export { buildApiUrl, expandEnv } from './env.js';
export { ConnectorError } from './connector-error.js';
export { parseRetryAfter } from './retry.js';
export { redactHeaders } from './http-log.js';
