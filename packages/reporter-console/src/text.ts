import { safeStringify, type Status } from '@agentest/kernel';
import { oneLine, truncate as cut } from '@agentest/report';

export const WIDTH = 63;
export const heavyRule = '═'.repeat(WIDTH);
export const lightRule = '─'.repeat(WIDTH);

export const STATUS_WORD: Record<Status, string> = {
  passed: 'PASSED',
  failed: 'FAILED',
  error: 'ERROR',
  timeout: 'TIMEOUT',
  skipped: 'SKIPPED',
};
export const STATUS_COLOUR = {
  passed: 'green',
  failed: 'red',
  error: 'red',
  timeout: 'yellow',
  skipped: 'gray',
} as const;

/** Collapses whitespace and cuts to `max` characters (code points) with `...`, as Yao's terminal output does. */
export function truncate(text: string, max: number): string {
  return cut(oneLine(text), max, '...');
}

/** The text a case's input shows as: the string, a message's text, or the last user turn of a conversation. */
export function inputText(input: unknown): string {
  if (typeof input === 'string') return input;
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

/** Strings as they are, anything else as compact JSON. */
export function compact(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  return safeStringify(value) ?? String(value);
}

/** `pass_rate` is the share of cases; the summary's pass rate counts runs. */
const METRIC_LABELS: Record<string, string> = { pass_rate: 'Case Pass Rate' };

export function metricLabel(name: string): string {
  return METRIC_LABELS[name] ?? name.replace(/_/g, ' ').replace(/\b\w/g, (c) => c.toUpperCase());
}

/** `  ⚠ Interrupted: 12 test cases finished, 30 not run` under an interrupted run's summary. */
export function interruptedText(s: { total: number; not_run?: number }): string {
  return `  ⚠ Interrupted: ${s.total} test case${s.total === 1 ? '' : 's'} finished, ${s.not_run ?? 0} not run`;
}
