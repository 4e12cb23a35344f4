import type { Agent, Message } from '@agentest/kernel';
import type { ChatClient } from './types.js';

/**
 * A bare connector as an agent: each case's messages go to the model after the fixed `prompts`, with
 * the agent's request `options` (temperature, tools, …) and, over them, the caller's `llm`
 * parameters (a judge's temperature and seed). The reply's content is the completion text.
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
    run: (messages, _ctx, signal, call) => {
      const request = call?.llm ? { ...options.options, ...call.llm } : options.options;
      return client.chat({ messages: [...prompts, ...messages], ...(request ? { options: request } : {}) }, signal);
    },
  };
}
