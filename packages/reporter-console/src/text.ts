import { compactValue as compact, oneLine, truncate as cut } from '@agentest/report';

export { compact };

export { STATUS_COLOUR, STATUS_WORD, heavyRule, interruptedText, lightRule } from '@agentest/report';

/** Collapses whitespace and cuts to `max` characters (code points) with `...`, as Yao's terminal output does. */
export function truncate(text: string, max: number): string {
  return cut(oneLine(text), max, '...');
}

/** The text a case's input shows as: the string, a message's text, or the last user turn of a conversation. */
export function inputText(input: unknown): string {
  if (typeof input === 'string') return input;
  // A dynamic case without an input: the simulated user opens the conversation.
  if (input === null || input === undefined) return '';
  if (Array.isArray(input)) {
    if (input.every((m) => m && typeof m === 'object' && 'role' in m)) {
      const user = [...input].reverse().find((m) => (m as { role: string }).role === 'user') ?? input.at(-1);
      return inputText(user);
    }
    return input.map(partText).filter(Boolean).join(' ');
  }
  if (input && typeof input === 'object' && 'content' in input) {
    const content = (input as { content: unknown }).content;
    return typeof content === 'string'
      ? content
      : Array.isArray(content)
        ? content.map(partText).filter(Boolean).join(' ')
        : '';
  }
  return compact(input);
}

function partText(part: unknown): string {
  if (!part || typeof part !== 'object') return String(part ?? '');
  const p = part as { type?: string; text?: string };
  return p.type === 'text' || typeof p.text === 'string' ? (p.text ?? '') : `[${p.type ?? 'part'}]`;
}

/** `pass_rate` is the share of cases; the summary's pass rate counts runs. */
const METRIC_LABELS: Record<string, string> = { pass_rate: 'Case Pass Rate' };

export function metricLabel(name: string): string {
  return METRIC_LABELS[name] ?? name.replace(/_/g, ' ').replace(/\b\w/g, (c) => c.toUpperCase());
}
