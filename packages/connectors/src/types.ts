import type { AgentReply, CallRole, Message } from '@agentest/kernel';

export interface ChatRequest {
  messages: Message[];
  /** Overrides the connector's model for this call. */
  model?: string;
  /** Request parameters passed through to the API: temperature, max_tokens, tools, tool_choice, … */
  options?: Record<string, unknown>;
  /** Overrides the connector's `stream` option for this call. */
  stream?: boolean;
  /**
   * Who makes the call: `agent` (default), `judge` or `simulator`. Cassettes key each role apart and
   * usage is counted per role. Calls made while a case's assertions are judged are `judge` without it.
   */
  role?: CallRole;
}

/** One configured connector, ready to answer chat requests. */
export interface ChatClient {
  readonly id: string;
  readonly type: string;
  readonly model?: string;
  chat(request: ChatRequest, signal: AbortSignal): Promise<AgentReply>;
}

/** A connector definition, as in `connectors/*.conn.yao` or the config's `connectors`. */
export interface ConnectorConfig {
  type: 'openai' | 'anthropic' | 'mock' | (string & {});
  name?: string;
  label?: string;
  options?: Record<string, unknown>;
  [key: string]: unknown;
}
