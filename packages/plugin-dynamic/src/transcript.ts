import type { AgentReply, Message, MessageToolCall } from '@agentest/kernel';

/**
 * What the agent's reply adds to the conversation the next turn resends: with tool calls, an
 * assistant message carrying them and one `tool` message per call, paired by id (Yao pairs by index,
 * W13); then the reply's text. Content that is not text is written as JSON, so every agent can read it.
 */
export function assistantMessages(reply: AgentReply, turn: number): Message[] {
  const text = reply.text || replyText(reply.content);
  const calls = reply.toolCalls ?? [];
  if (!calls.length) return text ? [{ role: 'assistant', content: text }] : [];
  const ids = calls.map((call, i) => call.id ?? `call_${turn}_${i + 1}`);
  const toolCalls: MessageToolCall[] = calls.map((call, i) => ({
    id: ids[i]!,
    type: 'function',
    function: { name: call.name, arguments: JSON.stringify(call.arguments ?? {}) },
  }));
  const results: Message[] = calls.map((call, i) => ({
    role: 'tool',
    tool_call_id: ids[i]!,
    content: JSON.stringify(call.error !== undefined ? { error: call.error } : (call.result ?? null)),
  }));
  return [
    { role: 'assistant', content: null, tool_calls: toolCalls },
    ...results,
    ...(text ? [{ role: 'assistant', content: text }] : []),
  ];
}

/** Text of a message's or reply's content: strings as they are, text parts joined, anything else as JSON. */
export function replyText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (content === null || content === undefined) return '';
  if (Array.isArray(content) && content.every((p) => p && typeof p === 'object' && 'type' in p)) {
    const texts = content.filter((p) => p.type === 'text' && typeof p.text === 'string').map((p) => p.text as string);
    if (texts.length) return texts.join('\n');
  }
  return JSON.stringify(content);
}
