import { isAscii } from 'node:buffer';
import { stat } from 'node:fs/promises';
import type { ResultEvent, StartEvent, SummaryEvent } from '@agentest/kernel';
import { blobInvalid, checkHeader, type BlobHeader } from './blob-header.js';
import { chunksOf, CHUNK_BYTES } from './blob-chunks.js';
import { BLOB_RUN_KEY, leanRun } from './lean-result.js';

/**
 * A case's final `result` line, kept as the text the shard wrote: the merge parses it when it replays
 * the case, so a merge of 100k results never holds them all parsed at once.
 */
export interface RecordedLine {
  text: string;
  /** Its line number, for an error naming it. */
  line: number;
  kind: string;
}

/** One shard's blob as read back: its header, its first start event, and each case's final result. */
export interface Blob {
  /** The path as the user gave it (or as found in the folder), for messages. */
  file: string;
  header: BlobHeader;
  /** The start event of the shard's first run; a resumed shard's later ones say the same. */
  start?: StartEvent;
  /** Each case's last `result` line: a case a resume ran again is the resumed run's. */
  results: Map<string, RecordedLine>;
  /** The last summary, marking when the shard (or its last resume) ended. */
  summary?: SummaryEvent;
}

/**
 * Reads a blob line by line. A last line cut short (a shard killed mid-write) is left out, as every
 * other line of a killed shard is whole; a line that is not a JSON object anywhere else is an error
 * naming the file and line.
 *
 * A finished case's `result` line, as the blob writer writes it (`{"type":"result","id":…,"kind":…,`,
 * whole, no run stopped by hand), is only recognised here, and parsed and checked when the merge
 * replays it ({@link parseRecorded}); every other line is parsed now.
 */
export async function readBlob(path: string, shown: string, chunkBytes = CHUNK_BYTES): Promise<Blob> {
  await fileExists(path, shown);
  const reader = new BlobReader(shown);
  for await (const chunk of chunksOf(path, chunkBytes)) reader.read(decoded(chunk));
  return reader.finish();
}

/**
 * A chunk's text. A chunk ends at a line end, so no character is cut in two; an ASCII one (most blobs)
 * is copied byte for character, which costs a fraction of decoding UTF-8 (and reads the same).
 */
function decoded(chunk: Buffer): string {
  return chunk.toString(isAscii(chunk) ? 'latin1' : 'utf8');
}

/**
 * A blob's lines, a chunk's text at a time (see blob-chunks.ts). The lines are cut from the chunk's
 * text as it is (a slice shares the chunk's characters), and found with one search each.
 */
class BlobReader {
  private blob?: Blob;
  private broken?: { line: number; reason: string };
  private lastResult?: string;
  private lineNumber = 0;
  private endsWithNewline = false;

  constructor(private readonly shown: string) {}

  read(text: string): void {
    // Where the chunk next says "run interrupted": one search through the chunk, not one through each line.
    let stopped = text.indexOf(STOPPED_WORDS);
    for (let start = 0; start < text.length;) {
      let next = text.indexOf('\n', start);
      if (next === -1) next = text.length;
      // A line written with Windows line ends (`\r\n`) without its `\r`.
      const end = next > start && text.charCodeAt(next - 1) === 13 ? next - 1 : next;
      if (stopped !== -1 && stopped < start) stopped = text.indexOf(STOPPED_WORDS, start);
      this.line(text.slice(start, end), stopped !== -1 && stopped < end);
      start = next + 1;
    }
    this.endsWithNewline = text.charCodeAt(text.length - 1) === 10;
  }

  /** One line; `stopped` when it says "run interrupted" (then it is parsed to tell whether its case is finished). */
  private line(text: string, stopped: boolean): void {
    this.lineNumber++;
    if (!text) return;
    const { blob, broken, shown } = this;
    if (broken) throw blobInvalid(shown, brokenLine(blob, broken), broken.line);
    const head = blob && !stopped ? finishedResultHead(text) : undefined;
    this.lastResult = head?.id;
    if (head) {
      blob!.results.set(head.id, { text, line: this.lineNumber, kind: head.kind });
      return;
    }
    const event = parseLine(text);
    if (typeof event === 'string') this.broken = { line: this.lineNumber, reason: event };
    else if (!blob) this.blob = { file: shown, header: checkHeader(event, shown), results: new Map() };
    else addEvent(blob, event, text, { shown, line: this.lineNumber });
  }

  finish(): Blob {
    const { blob, broken, shown, lastResult } = this;
    if (!blob) {
      if (!broken) throw blobInvalid(shown, 'the file is empty');
      // A first line that ends in a newline was written whole: the file is something else than a blob.
      if (this.endsWithNewline) throw blobInvalid(shown, brokenLine(blob, broken), broken.line);
      throw blobInvalid(shown, 'its first line is cut short: the shard was stopped before it wrote anything');
    }
    // The last line may be cut short just after a `}` of its own: only parsing it tells.
    const last = lastResult === undefined ? undefined : blob.results.get(lastResult);
    if (last && typeof parseLine(last.text) === 'string') blob.results.delete(lastResult!);
    return blob;
  }
}

/**
 * A recorded result, parsed as the merge replays its case, with its `runs` (a lean line's one run
 * rebuilt, see lean-result.ts); a line that is not one is an error naming it.
 */
export function parseRecorded(file: string, recorded: RecordedLine): ResultEvent {
  const event = parseLine(recorded.text);
  if (typeof event === 'string') throw blobInvalid(file, `not a JSON object (${event})`, recorded.line);
  return checkResult(event, file, recorded.line);
}

/** How the blob writer starts a result line (the kernel's key order), up to its id's value. */
const RESULT_START = '{"type":"result","id":"';
const KIND_KEY = '","kind":"';
/** The same, for any id and kind (with escapes in them): each as a JSON string. */
const RESULT_HEAD = /^\{"type":"result","id":("(?:[^"\\]|\\.)*"),"kind":("(?:[^"\\]|\\.)*"),/;

/**
 * The id and kind of a finished case's result line, read from its start without parsing it, or
 * `undefined` for any other line (which is then parsed and checked as a whole). A line that says "run
 * interrupted" is never asked: a case a hard stop cut short is told apart by its parsed runs (stoppedByHand).
 */
function finishedResultHead(text: string): { id: string; kind: string } | undefined {
  if (text.charCodeAt(text.length - 1) !== 125 /* } */ || !text.startsWith(RESULT_START)) return undefined;
  // An id and a kind without a backslash end at the next quote each: two searches, no regex.
  const idEnd = text.indexOf('"', RESULT_START.length);
  const kindEnd = text.startsWith(KIND_KEY, idEnd) ? text.indexOf('"', idEnd + KIND_KEY.length) : -1;
  if (kindEnd !== -1 && text.charCodeAt(kindEnd + 1) === 44 /* , */ && !text.slice(0, kindEnd).includes('\\'))
    return { id: text.slice(RESULT_START.length, idEnd), kind: text.slice(idEnd + KIND_KEY.length, kindEnd) };
  const head = RESULT_HEAD.exec(text);
  return head ? { id: JSON.parse(head[1]!) as string, kind: JSON.parse(head[2]!) as string } : undefined;
}

type Loose = Record<string, unknown>;

function addEvent(blob: Blob, event: Loose, text: string, at: { shown: string; line: number }): void {
  switch (event.type) {
    case 'start':
      blob.start ??= event as unknown as StartEvent;
      return;
    case 'result':
      // A case a hard stop (SIGTERM, a second Ctrl-C) cut short is not finished: a resume runs it again.
      if (!stoppedByHand(checkResult(event, at.shown, at.line)))
        blob.results.set(event.id as string, { text, line: at.line, kind: String(event.kind) });
      return;
    case 'summary':
      blob.summary = event as unknown as SummaryEvent;
      return;
    default:
  }
}

/** A result line's event, its lean line's run rebuilt as its `runs`; one without an id or runs is an error. */
function checkResult(event: Loose, shown: string, line: number): ResultEvent {
  const lean = event[BLOB_RUN_KEY];
  if (event.runs === undefined && Array.isArray(lean)) event.runs = [leanRun(event, lean)];
  if (typeof event.id !== 'string' || !Array.isArray(event.runs))
    throw blobInvalid(shown, 'a "result" line without its "id" and "runs"', line);
  return event as unknown as ResultEvent;
}

/** The kernel's words for a run a hard stop ended, and for a case stopped before its first run. */
const STOPPED = new Set(['run interrupted', 'run interrupted before it started']);
/** What both of them begin with. */
const STOPPED_WORDS = 'run interrupted';

function stoppedByHand(result: ResultEvent): boolean {
  if (!result.runs.length) return result.status === 'error' && STOPPED.has(result.error ?? '');
  return result.runs.some((run) => run.status === 'error' && STOPPED.has(run.error ?? ''));
}

function parseLine(line: string): Loose | string {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Loose) : 'not an object';
  } catch (error) {
    return (error as Error).message;
  }
}

async function fileExists(path: string, shown: string): Promise<void> {
  const found = await stat(path).catch(() => undefined);
  if (!found?.isFile())
    throw blobInvalid(shown, found ? 'is not a file' : 'not found: pass the blobs a sharded run wrote into --blob-dir');
}

/** What is wrong with a line that is not a JSON object: before the header, the file is not a blob at all. */
function brokenLine(blob: Blob | undefined, broken: { reason: string }): string {
  return blob
    ? `not a JSON object (${broken.reason})`
    : `not a shard blob: its first line is not a blob header (${broken.reason}); a .json or .jsonl report cannot be merged, only the blobs a sharded run writes into --blob-dir`;
}
