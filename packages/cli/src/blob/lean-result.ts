import type { DeepReadonly, Execution, ResultEvent } from '@agentest/kernel';

/**
 * With one run per case, a blob's result line is the record the JSONL report writes for the case
 * (the result with its run's own fields, no `runs` array) and one field more, last: `blob_run`, the
 * run's keys in order, from which merge rebuilds the run exactly. The line then holds each value
 * once, as the `runs` form does, and the merged report can write the line as the shard wrote it
 * (without `blob_run`) whenever the merged record is the same: most of a merge's writing cost.
 */
export const BLOB_RUN_KEY = 'blob_run';

/**
 * Format 3: a passed case's lean line has one key more, before `blob_run`: the line's keys after its
 * head (type, id, kind) in order with their values, the large ones ({@link LARGE}) as `0`. A merge
 * whose reports need no more of a passed case than its status, figures and history parses only this,
 * and writes the line as it is (see lean-replay.ts).
 */
export const BLOB_CASE_KEY = 'blob_case';

/** What a merge printing only the cases that did not pass never reads of a passed one: carried through unread. */
export const LARGE: ReadonlySet<string> = new Set(['input', 'expected', 'source', 'metadata', 'output', 'assertions']);

/** The run fields a one-run result carries itself (the JSONL report's rule); the run's others are added to it. */
const CARRIED = new Set(['status', 'duration_ms', 'output', 'error', 'assertions']);

type Loose = Record<string, unknown>;

/**
 * The lean line's record for a one-run result, or `undefined` when its run cannot be rebuilt from it
 * exactly (a run field the result also has with another value, such as `usage`), which is then
 * written with its `runs`.
 */
export function leanRecord(event: DeepReadonly<ResultEvent>): Loose | undefined {
  if (event.runs.length !== 1 || BLOB_RUN_KEY in event || BLOB_CASE_KEY in event) return undefined;
  const run = event.runs[0] as unknown as Loose;
  const result = event as unknown as Loose;
  if (run.run !== 1 || !sameMetrics(run.metrics, result.metrics)) return undefined;
  const record: Loose = {};
  for (const key in result) if (key !== 'runs') record[key] = result[key];
  const keys: string[] = [];
  for (const key in run) {
    const value = run[key];
    // A full reply is never written; an undefined field is not written either.
    if (key === 'reply' || value === undefined) continue;
    if (key === 'run' || key === 'metrics') keys.push(key);
    else if (CARRIED.has(key)) {
      if (value !== result[key]) return undefined;
      keys.push(key);
    } else {
      if (key in result) return undefined;
      record[key] = value;
      keys.push(key);
    }
  }
  const index = record.status === 'passed' ? caseIndex(record) : undefined;
  if (index) record[BLOB_CASE_KEY] = index;
  record[BLOB_RUN_KEY] = keys;
  return record;
}

/** The keys every result line starts with, which the merge reads from the line's start (read-blob.ts). */
export const LINE_HEAD: readonly string[] = ['type', 'id', 'kind'];

/**
 * A passed case's index: the line's keys after its head, in order, with their values, the large ones
 * as `0`; `undefined` for a record that does not start with the head.
 */
function caseIndex(record: Loose): Loose | undefined {
  const index: Loose = {};
  let i = 0;
  for (const key in record) {
    if (i < LINE_HEAD.length) {
      if (key !== LINE_HEAD[i++]) return undefined;
    } else if (record[key] !== undefined) index[key] = LARGE.has(key) ? 0 : record[key];
  }
  return i === LINE_HEAD.length ? index : undefined;
}

/** A lean line's run, rebuilt with its fields in their order: the line's values, `run` 1. */
export function leanRun(line: Loose, keys: readonly unknown[]): Execution {
  const run: Loose = {};
  for (const key of keys) if (typeof key === 'string') run[key] = key === 'run' ? 1 : line[key];
  return run as unknown as Execution;
}

/** The result's metrics are its run's when each is the same finite number, in the same order. */
function sameMetrics(run: unknown, result: unknown): boolean {
  if (!run || !result || typeof run !== 'object' || typeof result !== 'object') return false;
  const [ours, theirs] = [Object.keys(run), Object.keys(result)];
  if (ours.length !== theirs.length) return false;
  return ours.every((key, i) => {
    const value = (run as Loose)[key];
    return key === theirs[i] && typeof value === 'number' && Number.isFinite(value) && value === (result as Loose)[key];
  });
}

/**
 * The lean line as the JSONL report writes it, when `record` (what the report is about to write)
 * is the line's own: the same keys in the same order, each value the one parsed from the line or
 * one that serialises the same. The merge's values are the parsed ones wherever the replay keeps
 * them (the input, the output, the assertions); the few it recomputes (the metrics, the history) are
 * small and compared value by value. Anything else, or any difference, answers `undefined`.
 */
export function sameLine(record: Loose, parsed: Loose, text: string): string | undefined {
  const keys = Object.keys(parsed);
  let i = 0;
  for (const key in record) {
    const value = record[key];
    if (value === undefined) continue;
    if (keys[i++] !== key) return undefined;
    if (!sameJson(value, parsed[key], 0)) return undefined;
  }
  if (keys[i] !== BLOB_RUN_KEY && keys[i] !== BLOB_CASE_KEY) return undefined;
  const end = recordEnd(parsed, text);
  return end === -1 ? undefined : `${text.slice(0, end)}}`;
}

/**
 * Where the line's record ends and the blob's own keys begin. `blob_run` is last and holds key names
 * only, so its last occurrence is its own; a `blob_case` before it is found by its exact text.
 */
function recordEnd(parsed: Loose, text: string): number {
  const runAt = text.lastIndexOf(`,"${BLOB_RUN_KEY}":`);
  if (runAt === -1 || !(BLOB_CASE_KEY in parsed)) return runAt;
  const index = `,"${BLOB_CASE_KEY}":${JSON.stringify(parsed[BLOB_CASE_KEY])}`;
  return text.startsWith(index, runAt - index.length) ? runAt - index.length : -1;
}

/** Nesting deeper than this is not compared: such a value is serialised the usual way. */
const MOST_NESTED = 32;

/**
 * Whether two values serialise to the same JSON, answered only when that is certain without
 * serialising them: the same value, or plain arrays and objects (no `toJSON`) of such values with
 * the same keys in the same order. A false answer only costs the line its pass-through.
 */
export function sameJson(a: unknown, b: unknown, depth: number): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || depth > MOST_NESTED) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i], depth + 1)) return false;
    return true;
  }
  if (Array.isArray(b) || typeof (a as Loose).toJSON === 'function' || typeof (b as Loose).toJSON === 'function')
    return false;
  // A plain object's keys are its own: both walked in place, `b`'s into a list kept for its depth
  // (a list made per object compared was a merge's garbage).
  if (Object.getPrototypeOf(a) !== Object.prototype || Object.getPrototypeOf(b) !== Object.prototype) return false;
  const theirs = (keysAtDepth[depth] ??= []);
  let count = 0;
  for (const key in b) theirs[count++] = key;
  let i = 0;
  for (const key in a) {
    if (i === count || key !== theirs[i++] || !sameJson((a as Loose)[key], (b as Loose)[key], depth + 1)) return false;
  }
  return i === count;
}

/** The keys of the object `sameJson` compares at each depth, written over for each. */
const keysAtDepth: string[][] = [];
