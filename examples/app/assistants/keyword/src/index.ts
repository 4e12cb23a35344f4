/**
 * Hooks of the keyword assistant (Yao calls them with `(ctx, …, options)`).
 *
 * Create: caps the number of keywords (case `options.metadata.max_keywords`, default 5) with an
 * instruction placed after the prompts, and marks empty input in the metadata.
 * Next: turns the model's comma-separated completion into `{ keywords: [...] }`, the test output;
 * for empty input it answers `{ keywords: [] }` whatever the model said.
 */

interface Message {
  role: string;
  content: unknown;
}

interface HookContext {
  metadata?: Record<string, unknown>;
}

export function Create(ctx: HookContext, messages: Message[]) {
  const last = messages[messages.length - 1];
  const text = typeof last?.content === 'string' ? last.content.trim() : '';
  if (!text) return { messages: [{ role: 'user', content: '(empty input)' }], metadata: { empty_input: true } };
  const max = maxKeywords(ctx);
  return {
    messages: [{ role: 'system', content: `Return at most ${max} keywords.` }, ...messages],
    metadata: { max_keywords: max },
  };
}

export function Next(ctx: HookContext, payload: { completion?: { content?: unknown } | null }) {
  if (ctx.metadata?.empty_input) return { data: { keywords: [] as string[], note: 'empty input' } };
  const content = payload.completion?.content;
  if (typeof content !== 'string') return null;
  const seen = new Set<string>();
  for (const part of content.split(/[,\n]/)) {
    const keyword = part.replace(/^[\s\-*\d.]+/, '').trim().toLowerCase();
    if (keyword) seen.add(keyword);
  }
  return { data: { keywords: [...seen].slice(0, maxKeywords(ctx)) } };
}

function maxKeywords(ctx: HookContext): number {
  const max = Number(ctx.metadata?.max_keywords);
  return Number.isInteger(max) && max > 0 ? max : 5;
}
