import { readFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { AgentestError } from '@agentest/kernel';

/** The folder beside a suite's file that holds its snapshots. */
export const SNAPSHOT_FOLDER = '__snapshots__';

/** One stored snapshot: the case, which snapshot of it (its name, or `#1`, `#2`… in order), and the value. */
export interface SnapshotEntry {
  case: string;
  key: string;
  value: unknown;
}

/** `<dir of the suite>/__snapshots__/<suite>.snap.jsonl`. */
export function snapshotFile(suiteFile: string, cwd: string): string {
  const path = resolve(cwd, suiteFile);
  const suite = basename(path).replace(/\.[^.]+$/, '') || 'suite';
  return join(dirname(path), SNAPSHOT_FOLDER, `${suite}.snap.jsonl`);
}

/** The map key of an entry: case and key cannot collide, whatever characters they hold. */
export function entryId(caseId: string, key: string): string {
  return JSON.stringify([caseId, key]);
}

/** A suite's stored snapshots by `entryId`; none when there is no file. A broken line names the file and line. */
export async function readSnapshots(path: string): Promise<Map<string, SnapshotEntry>> {
  const entries = new Map<string, SnapshotEntry>();
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return entries;
    throw error;
  }
  text.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    const entry = parseEntry(line);
    if (!entry)
      throw new AgentestError(
        'INPUT_INVALID',
        `${path}:${i + 1}: not a snapshot entry ({"case", "key", "value"}); fix the line or write the file again with --update`,
        { where: `${path}:${i + 1}` },
      );
    entries.set(entryId(entry.case, entry.key), entry);
  });
  return entries;
}

function parseEntry(line: string): SnapshotEntry | undefined {
  try {
    const entry = JSON.parse(line) as Partial<SnapshotEntry> | null;
    if (entry && typeof entry.case === 'string' && typeof entry.key === 'string' && 'value' in entry)
      return entry as SnapshotEntry;
  } catch {
    // Reported by the caller with the file and line.
  }
  return undefined;
}

/** One line per entry, in case and key order, so the file is the same whatever order the cases ran in. */
export function serialiseSnapshots(entries: Iterable<SnapshotEntry>): string {
  const sorted = [...entries].sort((a, b) => compare(a.case, b.case) || compareKeys(a.key, b.key));
  return sorted.map((entry) => `${canonicalJson({ case: entry.case, key: entry.key, value: entry.value })}\n`).join('');
}

/** JSON with object keys sorted, so an output whose keys come in another order is the same snapshot. */
export function canonicalJson(value: unknown, indent?: number): string {
  return JSON.stringify(value, (_key, v: unknown) => (isPlainObject(v) ? sortKeys(v) : v), indent) ?? 'null';
}

function sortKeys(object: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.keys(object)
      .sort(compare)
      .map((key) => [key, object[key]]),
  );
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** `#2` before `#10`; names after numbered keys, in code-point order. */
function compareKeys(a: string, b: string): number {
  const na = /^#(\d+)$/.exec(a);
  const nb = /^#(\d+)$/.exec(b);
  if (na && nb) return Number(na[1]) - Number(nb[1]);
  if (na || nb) return na ? -1 : 1;
  return compare(a, b);
}
