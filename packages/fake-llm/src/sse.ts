/** One Server-Sent Event as both APIs frame it; Anthropic also names the event. */
export function sseEvent(data: unknown, event?: string): string {
  const payload = typeof data === 'string' ? data : JSON.stringify(data);
  return `${event ? `event: ${event}\n` : ''}data: ${payload}\n\n`;
}

/**
 * Splits reply text into stream deltas: small pieces for short texts (so clients really assemble
 * several deltas), at most 64 pieces for long ones (so a huge reply does not become a million events).
 */
export function splitText(text: string): string[] {
  if (!text) return [];
  const size = Math.max(8, Math.ceil(text.length / 64));
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
  return pieces;
}

/** What both formatters need besides the reply. */
export interface ReplyContext {
  id: string;
  model: string;
  created: number;
  promptTokens: number;
  /** OpenAI `stream_options.include_usage`. */
  includeUsage: boolean;
}
