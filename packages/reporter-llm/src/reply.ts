import type { AgentReply } from '@agentest/kernel';
import { withStrictCsp } from './strict-csp.js';

export type ReportFormat = 'html' | 'markdown' | 'json' | 'text';

const FENCE_LANGUAGES: Record<ReportFormat, string[]> = {
  html: ['html', 'htm'],
  markdown: ['markdown', 'md'],
  json: ['json'],
  text: ['text', 'txt'],
};

/**
 * The document in a reporter agent's reply: its text, unwrapped when the model put it in a fenced
 * block (```html … ```), alone or with a line of chatter around it. An HTML document is put behind a
 * strict Content-Security-Policy (no scripts). Throws when there is nothing usable, so that the
 * built-in report stands instead.
 */
export function documentFromReply(reply: AgentReply, format: ReportFormat): string {
  const raw = reply.text?.trim()
    ? reply.text
    : typeof reply.content === 'string'
      ? reply.content
      : reply.content == null
        ? ''
        : JSON.stringify(reply.content);
  const document = unfence(raw.trim(), format).trim();
  if (!document) throw new Error('the reply was empty');
  if (format === 'json') {
    try {
      JSON.parse(document);
    } catch {
      throw new Error('the reply is not valid JSON');
    }
  }
  return `${format === 'html' ? withStrictCsp(document) : document}\n`;
}

function unfence(text: string, format: ReportFormat): string {
  const whole = /^(`{3,}|~{3,})[\w-]*[^\n]*\n([\s\S]*?)\n\1\s*$/.exec(text);
  if (whole) return whole[2]!;
  const blocks = [...text.matchAll(/^(`{3,}|~{3,})([\w-]*)[^\n]*\n([\s\S]*?)\n\1[ \t]*$/gm)];
  const matching = blocks.filter((b) => FENCE_LANGUAGES[format].includes(b[2]!.toLowerCase()));
  return matching.length === 1 ? matching[0]![3]! : text;
}
