/**
 * Hooks of the keyword assistant. Yao calls them as `Create(ctx, messages, options)` and
 * `Next(ctx, payload, options)`.
 *
 * Create: caps the number of keywords (the case's `options.metadata.max_keywords`, default 5) with an
 * instruction placed after the prompts, and notes empty input in the metadata.
 * Next: turns the model's JSON answer into `{ keywords, need_search, confidence }`, the test output,
 * through the `Parse` process of `src/answer.ts` (as a Yao app splits its hooks). Plain text is left
 * alone, so the completion itself is the output.
 */

import { log, Process } from '@yao/runtime';

interface Message {
  role: string;
  content: unknown;
}

interface HookContext {
  metadata?: Record<string, unknown>;
}

interface Keywords {
  keywords: string[];
  need_search: boolean;
  confidence: number | null;
}

export function Create(ctx: HookContext, messages: Message[]) {
  const text = lastUserText(messages);
  if (!text) return { metadata: { empty_input: true } };
  const max = maxKeywords(ctx);
  return {
    messages: [{ role: 'system', content: `Return at most ${max} keywords.` }, ...messages],
    metadata: { max_keywords: max },
  };
}

export function Next(ctx: HookContext, payload: { completion?: { content?: unknown } | null }) {
  if (ctx.metadata?.empty_input) return { data: { keywords: [], need_search: false, confidence: 1 } };
  const answer: Keywords | null = Process('agents.keyword.answer.Parse', payload.completion?.content ?? null);
  if (!answer) {
    log.Warn('keyword: the answer is not the JSON the prompt asks for; the text is the output');
    return null;
  }
  return { data: { ...answer, keywords: answer.keywords.slice(0, maxKeywords(ctx)) } };
}

function lastUserText(messages: Message[]): string {
  const last = [...messages].reverse().find((m) => m.role === 'user');
  if (!last) return '';
  if (typeof last.content === 'string') return last.content.trim();
  if (Array.isArray(last.content)) {
    return last.content
      .map((part: { type?: string; text?: string }) => (part.type === 'text' ? (part.text ?? '') : ''))
      .join(' ')
      .trim();
  }
  return '';
}

function maxKeywords(ctx: HookContext): number {
  const max = Number(ctx.metadata?.max_keywords);
  return Number.isInteger(max) && max > 0 ? max : 5;
}
