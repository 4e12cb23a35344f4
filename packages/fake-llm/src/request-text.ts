/**
 * Reads text out of OpenAI and Anthropic request bodies: the last user message (what rules match
 * against) and all prompt text (for token estimates). Both APIs allow string or part-array content.
 */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) =>
      part && typeof part === 'object' && typeof (part as { text?: unknown }).text === 'string'
        ? (part as { text: string }).text
        : '',
    )
    .filter(Boolean)
    .join('\n');
}

function messagesOf(body: unknown): { role?: unknown; content?: unknown }[] {
  const messages = (body as { messages?: unknown } | null)?.messages;
  return Array.isArray(messages) ? messages.filter((m) => m && typeof m === 'object') : [];
}

export function lastUserText(body: unknown): string {
  const messages = messagesOf(body);
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i].role === 'user') {
      const text = contentText(messages[i].content);
      // An Anthropic tool_result turn is a user message with no text; keep looking for the real question.
      if (text || typeof messages[i].content === 'string') return text;
    }
  }
  return '';
}

/**
 * The length of all prompt text (the system prompt and every message, one line between them), for
 * the token estimate: counted, not joined, as the fake answers every request with it.
 */
export function promptLength(body: unknown): number {
  const system = (body as { system?: unknown } | null)?.system;
  const messages = messagesOf(body);
  let length = contentText(system).length + messages.length;
  for (const message of messages) length += contentText(message.content).length;
  return length;
}

/** A rough token count (4 characters a token), enough for usage figures to be plausible and non-zero. */
export function estimateTokens(text: string): number {
  return tokensForLength(text.length);
}

export function tokensForLength(length: number): number {
  return Math.max(1, Math.ceil(length / 4));
}
