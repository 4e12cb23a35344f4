import type { Agent } from '@agentest/kernel';
import { lastUserText } from './message-text.js';

/**
 * `-n echo`: replies with the text of the last user message. Deterministic and instant, so it is
 * the agent of smoke tests and benchmarks; it allocates nothing beyond the reply object.
 */
export const echoAgent: Agent = Object.freeze({
  id: 'echo',
  run(messages) {
    const text = lastUserText(messages);
    return Promise.resolve({ content: text, text });
  },
} satisfies Agent);
