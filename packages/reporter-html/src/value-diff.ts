import { diffLines } from 'diff';

/** One line of a diff: `-` only in the expected value, `+` only in the actual one, ` ` in both. */
export type DiffLine = [op: '-' | '+' | ' ', text: string];

/** Past this many edits two values are too different for a diff to help; the page shows both whole. */
const MAX_EDITS = 2000;
const MAX_LINES = 500;

/**
 * Expected against actual, line by line (jsdiff's Myers diff), for a failed assertion's details.
 * Undefined when they are equal or too different for a diff to be worth reading.
 */
export function lineDiff(expected: string, actual: string): DiffLine[] | undefined {
  if (expected === actual) return undefined;
  const changes = diffLines(expected, actual, { maxEditLength: MAX_EDITS });
  if (!changes) return undefined;
  const lines: DiffLine[] = [];
  for (const change of changes) {
    const op = change.added ? '+' : change.removed ? '-' : ' ';
    for (const line of change.value.replace(/\n$/, '').split('\n')) lines.push([op, line]);
  }
  return lines.length > MAX_LINES
    ? [...lines.slice(0, MAX_LINES), [' ', `… ${lines.length - MAX_LINES} more lines`]]
    : lines;
}
