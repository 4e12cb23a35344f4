import type { Agent, AgentReply, ExecuteContext, Message } from '@agentest/kernel';
import { lastUserText } from './message-text.js';

/**
 * `-n echo`: replies with the text of the last user message. Deterministic and instant, so it is
 * the agent of smoke tests and benchmarks; it allocates nothing beyond the reply object.
 */
export const echoAgent: Agent = Object.freeze({
  id: 'echo',
  run(messages) {
    return Promise.resolve(echoReply(messages));
  },
} satisfies Agent);

/** The echo agent's reply, made at once: the executor calls this directly instead of awaiting `run`. */
export function echoReply(messages: readonly Message[]): AgentReply {
  const text = lastUserText(messages);
  return { content: text, text };
}

/** A signal that never fires, shared by every call of the echo agent. */
const UNUSED_SIGNAL = new AbortController().signal;

/**
 * The signal an agent is called with: the run's own, except for the echo agent, which never reads
 * it. The run's signal is made when first asked for, and making one (an `AbortController`) costs
 * microseconds in Node 20, more than a whole echo call. Only the echo agent itself qualifies, not a
 * wrapper around it, which may well read the signal.
 */
export function callSignal(agent: Agent, ctx: ExecuteContext): AbortSignal {
  return agent === echoAgent ? UNUSED_SIGNAL : ctx.signal;
}
