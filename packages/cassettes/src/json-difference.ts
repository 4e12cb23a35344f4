import { stableJson } from './canonical.js';

const MAX_LINES = 8;
const MAX_VALUE = 120;
/** Characters shown before the first difference of two texts. */
const CONTEXT = 30;

/**
 * Where two JSON values differ, as `path: stored → now` lines (at most a few, longest paths first
 * reached), so a miss shows the changed prompt rather than two walls of JSON.
 */
export function jsonDifference(stored: unknown, now: unknown): string[] {
  const lines: string[] = [];
  walk(stored, now, '$', lines);
  return lines.length > MAX_LINES
    ? [...lines.slice(0, MAX_LINES), `… and ${lines.length - MAX_LINES} more differences`]
    : lines;
}

function walk(stored: unknown, now: unknown, path: string, out: string[]): void {
  if (stableJson(stored) === stableJson(now)) return;
  if (isRecord(stored) && isRecord(now)) {
    for (const key of new Set([...Object.keys(stored), ...Object.keys(now)]))
      walk(stored[key], now[key], `${path}.${key}`, out);
    return;
  }
  if (Array.isArray(stored) && Array.isArray(now)) {
    for (let i = 0; i < Math.max(stored.length, now.length); i++) walk(stored[i], now[i], `${path}[${i}]`, out);
    return;
  }
  if (typeof stored === 'string' && typeof now === 'string') out.push(`${path}: ${textDifference(stored, now)}`);
  else out.push(`${path}: ${show(stored)} → ${show(now)}`);
}

/** Two long texts shown around where they start to differ, so a changed word in a long prompt is visible. */
function textDifference(stored: string, now: string): string {
  let at = 0;
  while (at < stored.length && stored[at] === now[at]) at++;
  const start = Math.max(0, at - CONTEXT);
  const cut = (text: string) => {
    const part = text.slice(start, at + MAX_VALUE - CONTEXT);
    const quoted = JSON.stringify(part).slice(1, -1);
    return `"${start > 0 ? '…' : ''}${quoted}${start + part.length < text.length ? '…' : ''}"`;
  };
  return `${cut(stored)} → ${cut(now)}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function show(value: unknown): string {
  if (value === undefined) return '(absent)';
  const text = JSON.stringify(value);
  return text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE)}…` : text;
}
