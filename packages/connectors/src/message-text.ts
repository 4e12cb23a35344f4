import type { Message } from '@agentest/kernel';

/** The text of a message's content: the string itself, or its text parts joined by newlines. */
export function contentText(content: Message['content'] | undefined): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => (typeof part.text === 'string' ? part.text : ''))
    .filter(Boolean)
    .join('\n');
}

/** The last user message's text: what mock replies are matched against. */
export function lastUserText(messages: Message[]): string {
  for (let i = messages.length - 1; i >= 0; i--)
    if (messages[i].role === 'user') return contentText(messages[i].content);
  return '';
}

/** Tool arguments as the API sent them (JSON text), parsed when they are JSON, else kept as text. */
export function parseArguments(args: unknown): unknown {
  if (typeof args !== 'string') return args ?? {};
  if (args.trim() === '') return {};
  try {
    return JSON.parse(args);
  } catch {
    return args;
  }
}
