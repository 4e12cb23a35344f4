import type { Execution, TestCase } from '@agentest/kernel';
import { safeStringify } from '@agentest/common';
import type { SerialisedLine } from '@agentest/reporter-jsonl';
import { BLOB_CASE_KEY, BLOB_RUN_KEY, LARGE, LINE_HEAD, sameJson } from './lean-result.js';
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
  const keys = runKeys(text, runAt + RUN_KEY.length);
  if (!index || typeof index !== 'object' || Array.isArray(index) || !keys || index.status !== 'passed')
    return undefined;
  return new LeanRecorded(id, recorded.kind, index, heldRun(index, keys), file, recorded, caseAt);
}

const RUN_KEY = `,"${BLOB_RUN_KEY}":`;
const CASE_KEY = `,"${BLOB_CASE_KEY}":`;

/** The run keys of the lines read so far, by their text: most lines of a suite have the same few. */
const runKeysByText = new Map<string, readonly unknown[] | undefined>();
/** The last line's run keys, and their text: the next line's are most often the same, compared without a look-up. */
let last: { text: string; keys: readonly unknown[] | undefined } = { text: '', keys: undefined };

/** The run keys written in `line` from `from` to its closing brace. */
function runKeys(line: string, from: number): readonly unknown[] | undefined {
  const text = line.slice(from, -1);
  if (text === last.text) return last.keys;
  let keys = runKeysByText.get(text);
  if (keys === undefined && !runKeysByText.has(text)) {
    const value = parsed(text);
    keys = Array.isArray(value) ? Object.freeze(value) : undefined;
    // A suite's runs have a handful of shapes; a blob of another kind does not grow this without end.
    if (runKeysByText.size < 256) runKeysByText.set(text, keys);
  }
  last = { text, keys };
  return keys;
}

/** The lean line's run (see `leanRun`) with its large values held: they are in the line. */
function heldRun(index: Loose, keys: readonly unknown[]): Execution {
  const run: Loose = {};
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    if (typeof key === 'string') run[key] = key === 'run' ? 1 : LARGE.has(key) ? held(index[key]) : index[key];
  }
  return run as unknown as Execution;
}

/** A large value of the index (`0`, or missing): {@link HELD} when the line has it. */
function held(value: unknown): unknown {
  return value === undefined ? undefined : HELD;
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
 *
 * The parsed index is kept as it is (its large values `0`): the case replayed and the fields the
 * merge restores are read from it, with {@link HELD} for each large value the line has.
 */
export class LeanRecorded implements SerialisedLine {
  constructor(
    readonly id: string,
    readonly kind: string,
    /** The line's keys after its head, with their values (the large ones `0`): also what the merge restores from. */
    readonly result: Loose,
    private readonly run: Execution,
    private readonly file: string,
    private readonly recorded: RecordedLine,
    /** Where the line's record ends: its index and run keys are the blob's own. */
    private readonly end: number,
  ) {}

  /** The case to replay: the index's fields, its large ones held, and its one run. */
  testCase(): TestCase {
    const { result: index } = this;
    // Assigned one by one, in the order `caseOf` (replay-shards.ts) gives a case parsed whole.
    const testCase = { id: this.id, kind: this.kind } as TestCase;
    if (index.name !== undefined) testCase.name = index.name as string;
    testCase.input = held(index.input);
    testCase.messages = [];
    if (index.expected !== undefined) testCase.expected = HELD;
    if (index.metadata !== undefined) testCase.metadata = HELD as TestCase['metadata'];
    if (index.tags) testCase.tags = index.tags as string[];
    testCase.source = held(index.source) as TestCase['source'];
    if (index.todo) testCase.todo = true;
    testCase.recordedRuns = [this.run];
    return testCase;
  }

  line(record: Loose): string | undefined {
    if (sameRecord(record, this)) return `${this.recorded.text.slice(0, this.end)}}`;
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
function sameRecord(record: Loose, { id, kind, result: index }: LeanRecorded): boolean {
  const keys = indexKeys;
  let count = 0;
  for (const key in index) keys[count++] = key;
  let h = 0;
  let i = 0;
  for (const key in record) {
    const value = record[key];
    if (h < LINE_HEAD.length) {
      if (key !== LINE_HEAD[h++] || value !== (key === 'type' ? 'result' : key === 'id' ? id : kind)) return false;
      continue;
    }
    if (value === undefined) continue;
    if (i === count || keys[i++] !== key) return false;
    if (LARGE.has(key) ? value !== HELD : !sameJson(value, index[key], 0)) return false;
  }
  return h === LINE_HEAD.length && i === count;
}

/** The index's keys in order, written over for each record compared: no list made per case. */
const indexKeys: string[] = [];
