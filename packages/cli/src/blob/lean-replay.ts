import type { ResultEvent } from '@agentest/kernel';
import { safeStringify } from '@agentest/common';
import type { SerialisedLine } from '@agentest/reporter-jsonl';
import { BLOB_CASE_KEY, BLOB_RUN_KEY, LARGE, LINE_HEAD, leanRun, sameJson } from './lean-result.js';
import { parseRecorded, type RecordedLine } from './read-blob.js';

/**
 * Where a large value of a passed case stands while the merge replays it from its index: the value
 * is in the blob line, which the JSONL report writes as it is. Never meant to be written itself.
 */
export const HELD: object = Object.freeze({ toJSON: () => '[a value agentest merge left in the blob line]' });

type Loose = Record<string, unknown>;

/**
 * A passed case read from its line's index alone (blob format 3, see lean-result.ts): a fraction of
 * the line parsed, its large values (input, output, assertions, …) left as {@link HELD}. `undefined`
 * for a line without an index, or whose index does not read back as one: that line is parsed whole.
 *
 * Only a merge whose reports read nothing of a passed case but its status, figures and history
 * replays this way: the JSONL report (which writes the line as it is), the console printing only the
 * cases that did not pass, the run history and the verdict.
 */
export function leanRecorded(file: string, id: string, recorded: RecordedLine): LeanRecorded | undefined {
  const { text } = recorded;
  // `blob_run` is the line's last key and holds key names only: its last occurrence is its own.
  const runAt = text.lastIndexOf(RUN_KEY);
  const caseAt = runAt === -1 ? -1 : text.lastIndexOf(CASE_KEY, runAt);
  if (caseAt === -1) return undefined;
  // Cut from a key nested in the index, the text would not be one object: only the index's own is.
  const index = parsed(text.slice(caseAt + CASE_KEY.length, runAt)) as Loose | undefined;
  const keys = runKeys(text.slice(runAt + RUN_KEY.length, -1));
  if (!index || typeof index !== 'object' || Array.isArray(index) || !keys || index.status !== 'passed')
    return undefined;
  // The index becomes the recorded result (an object less a case): its large values held, its head and run added.
  const lineKeys = Object.keys(index);
  for (const key of lineKeys) if (LARGE.has(key)) index[key] = HELD;
  Object.assign(index, { type: 'result', id, kind: recorded.kind });
  index.runs = [leanRun(index, keys)];
  return new LeanRecorded(index as unknown as ResultEvent, lineKeys, file, recorded, caseAt);
}

const RUN_KEY = `,"${BLOB_RUN_KEY}":`;
const CASE_KEY = `,"${BLOB_CASE_KEY}":`;

/** The run keys of the lines read so far, by their text: most lines of a suite have the same few. */
const runKeysByText = new Map<string, readonly unknown[] | undefined>();

function runKeys(text: string): readonly unknown[] | undefined {
  let keys = runKeysByText.get(text);
  if (keys === undefined && !runKeysByText.has(text)) {
    const value = parsed(text);
    keys = Array.isArray(value) ? Object.freeze(value) : undefined;
    // A suite's runs have a handful of shapes; a blob of another kind does not grow this without end.
    if (runKeysByText.size < 256) runKeysByText.set(text, keys);
  }
  return keys;
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * A case replayed from its index, and its line: the JSONL report writes the line as it is when the
 * merged record is the recorded one (the same keys in order, the values the index holds, the large
 * ones untouched); otherwise the line is parsed whole and the record written with its values.
 */
export class LeanRecorded implements SerialisedLine {
  constructor(
    readonly result: ResultEvent,
    /** The line's keys after its head, in order: the index's own. */
    private readonly keys: readonly string[],
    private readonly file: string,
    private readonly recorded: RecordedLine,
    /** Where the line's record ends: its index and run keys are the blob's own. */
    private readonly end: number,
  ) {}

  line(record: Loose): string | undefined {
    if (sameRecord(record, this.result as unknown as Loose, this.keys))
      return `${this.recorded.text.slice(0, this.end)}}`;
    // Another record (a history of the merge's own, say): the large values come from the line, parsed now.
    const parsed = parseRecorded(this.file, this.recorded) as unknown as Loose;
    for (const key in record) if (record[key] === HELD) record[key] = parsed[key];
    return safeStringify(record);
  }
}

/**
 * The record is the line's: its head (type, id, kind) the case's, then the index's keys in the same
 * order (a large one still held), each other value the index's, or the same JSON. A key without a value is not
 * written, as `JSON.stringify` leaves it out.
 */
function sameRecord(record: Loose, result: Loose, keys: readonly string[]): boolean {
  let head = 0;
  let i = 0;
  for (const key in record) {
    const value = record[key];
    if (head < LINE_HEAD.length) {
      if (key !== LINE_HEAD[head++] || value !== result[key]) return false;
      continue;
    }
    if (value === undefined) continue;
    if (keys[i++] !== key) return false;
    if (LARGE.has(key) ? value !== HELD : !sameJson(value, result[key], 0)) return false;
  }
  return head === LINE_HEAD.length && i === keys.length;
}
