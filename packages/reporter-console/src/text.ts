import { safeStringify, type Status } from '@agentest/kernel';

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

/** Whitespace that `truncate` would change: a run, a non-space character, or any at either end. */
const UNTIDY_SPACE = /[^\S ]| \s|^\s|\s$/;

/**
 * Collapses whitespace and cuts to `max` characters (code points) with `...`, as Yao's terminal
 * output does. Runs once per case, so tidy text and short text take no copies.
 */
export function truncate(text: string, max: number): string {
  const flat = UNTIDY_SPACE.test(text) ? text.replace(/\s+/g, ' ').trim() : text;
  if (flat.length <= max) return flat;
  const keep = Math.max(0, max - 3);
  let count = 0;
  let cut = 0;
  for (let i = 0; i < flat.length; i++) {
    if (count === keep) cut = i;
    if (++count > max) return flat.slice(0, cut) + '...';
    const code = flat.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < flat.length) {
      const next = flat.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
  }
  return flat;
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

/** `0.72` → `72.0%` for rates, `812` → `812ms` for latencies, anything else to 4 decimals. */
export function metricValue(name: string, value: number): string {
  if (name.endsWith('_ms')) return `${Math.round(value)}ms`;
  if (name.endsWith('_rate')) return `${(value * 100).toFixed(1)}%`;
  return String(Math.round(value * 10_000) / 10_000);
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
