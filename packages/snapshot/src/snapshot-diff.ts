// The line diff alone: the package's index brings every other diff flavour (some twenty modules).
import { diffLines } from 'diff/lib/diff/line.js';
import { canonicalJson } from './snapshot-file.js';

/** Past this many edits a diff stops helping; the message then shows both values' first lines. */
const MAX_EDITS = 2000;
const MAX_LINES = 80;

/**
 * The stored snapshot against the new value, line by line: `- ` only in the snapshot, `+ ` only in
 * the output. Text is compared as text, anything else as indented JSON with sorted keys.
 */
export function snapshotDiff(stored: unknown, actual: unknown): string {
  const before = asText(stored);
  const after = asText(actual);
  const changes = diffLines(before, after, { maxEditLength: MAX_EDITS });
  if (!changes) return `- ${clip(before)}\n+ ${clip(after)}`;
  const lines: string[] = ['--- snapshot', '+++ output'];
  for (const change of changes) {
    const mark = change.added ? '+ ' : change.removed ? '- ' : '  ';
    for (const line of change.value.replace(/\n$/, '').split('\n')) lines.push(`${mark}${line}`);
  }
  return lines.length > MAX_LINES
    ? [...lines.slice(0, MAX_LINES), `… ${lines.length - MAX_LINES} more lines`].join('\n')
    : lines.join('\n');
}

function asText(value: unknown): string {
  return typeof value === 'string' ? value : canonicalJson(value, 2);
}

function clip(text: string): string {
  return text.length > 500 ? `${text.slice(0, 500)}…` : text;
}
