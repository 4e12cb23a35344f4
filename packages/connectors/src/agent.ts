import type { Agent, Message } from '@agentest/kernel';
import type { ChatClient } from './types.js';

/**
 * A bare connector as an agent: each case's messages go to the model after the fixed `prompts`, with
 * the agent's request `options` (temperature, tools, …). The reply's content is the completion text.
 */
export function connectorAgent(
  id: string,
  client: ChatClient,
  options: { prompts?: Message[]; options?: Record<string, unknown>; path?: string } = {},
): Agent {
  const prompts = options.prompts ?? [];
  return {
    id,
    connector: client.id,
    ...(options.path ? { path: options.path } : {}),
    run: (messages, _ctx, signal) =>
      client.chat(
        { messages: [...prompts, ...messages], ...(options.options ? { options: options.options } : {}) },
        signal,
      ),
  };
}
