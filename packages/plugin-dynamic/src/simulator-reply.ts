import type { AgentReply } from '@agentest/kernel';
import { replyJson } from '@agentest/common';

/** What the simulated user says next: a message, or that it is done. */
export type SimulatorMove =
  { kind: 'message'; message: string; reasoning?: string } | { kind: 'done'; message?: string; reasoning?: string };

/**
 * Reads a simulator's reply (Yao's `{"message", "goal_achieved", "reasoning"}`). A JSON object
 * (bare or fenced) is read by those keys; `goal_achieved: true` means the user is done, with or
 * without a last message (W5). Any other text is the user's message as written. An empty reply, a
 * JSON value that is not an object, or an object with neither a message nor `goal_achieved: true`
 * is an error naming what came back.
 */
export function parseSimulatorReply(reply: AgentReply): SimulatorMove {
  const text = replyText(reply);
  const value = reply.content !== null && typeof reply.content === 'object' ? reply.content : replyJson(text);
  if (value === undefined) {
    if (!text.trim()) throw new Error('the simulator returned an empty reply');
    return { kind: 'message', message: text.trim() };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new Error(`the simulator returned ${quote(text)}, a JSON value that is not an object with "message"`);
  const object = value as Record<string, unknown>;
  const message = typeof object.message === 'string' && object.message.trim() ? object.message : undefined;
  const reasoning = typeof object.reasoning === 'string' ? { reasoning: object.reasoning } : {};
  if (object.goal_achieved === true) return { kind: 'done', ...(message ? { message } : {}), ...reasoning };
  if (message) return { kind: 'message', message, ...reasoning };
  throw new Error(
    `the simulator returned ${quote(text)} without a "message" (expected {"message": "…", "goal_achieved": false})`,
  );
}

function replyText(reply: AgentReply): string {
  if (typeof reply.text === 'string' && reply.text) return reply.text;
  if (typeof reply.content === 'string') return reply.content;
  return reply.content == null ? '' : JSON.stringify(reply.content);
}

/** The reply, quoted for a message, cut at 200 characters. */
export function quote(text: string): string {
  return JSON.stringify(text.length > 200 ? `${text.slice(0, 200)}…` : text);
}
