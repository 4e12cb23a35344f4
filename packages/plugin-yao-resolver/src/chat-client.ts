import type { AgentReply, Message } from '@agentest/kernel';
import type { ConnectorConfig } from '@agentest/connectors';

/** The slice of `@agentest/connectors`' client that an assistant needs. */
export interface ChatClient {
  chat(
    request: { messages: Message[]; model?: string; options?: Record<string, unknown>; stream?: boolean },
    signal: AbortSignal,
  ): Promise<AgentReply>;
  close?(): void | Promise<void>;
}

/** `createChatClient` from `@agentest/connectors`: throws CONNECTOR_INVALID or SECRET_MISSING. */
export type ChatClientFactory = (id: string, config: ConnectorConfig, env: NodeJS.ProcessEnv) => ChatClient;
