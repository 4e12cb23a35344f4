import { stableJson } from './canonical.js';

const MAX_LINES = 8;
const MAX_VALUE = 120;

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
  out.push(`${path}: ${show(stored)} → ${show(now)}`);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function show(value: unknown): string {
  if (value === undefined) return '(absent)';
  const text = JSON.stringify(value);
  return text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE)}…` : text;
}
