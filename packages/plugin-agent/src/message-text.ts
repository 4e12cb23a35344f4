import type { Message } from '@agentest/kernel';

/** The text of one message: a string as is, text parts joined with `\n` (as Yao extracts them). */
export function messageText(content: Message['content']): string {
  if (typeof content === 'string') return content;
  if (!content) return '';
  let text: string | undefined;
  for (const part of content) {
    if (part.type !== 'text' || typeof part.text !== 'string') continue;
    text = text === undefined ? part.text : `${text}\n${part.text}`;
  }
  return text ?? '';
}

/**
 * The text of the last user message, or '' when there is none. A plain loop, no copies: the echo
 * agent calls this once per case and is the benchmark's agent.
 */
export function lastUserText(messages: readonly Message[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role === 'user') return messageText(message.content);
  }
  return '';
}
