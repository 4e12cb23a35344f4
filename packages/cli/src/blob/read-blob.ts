import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { ResultEvent, StartEvent, SummaryEvent } from '@agentest/kernel';
import { blobInvalid, checkHeader, type BlobHeader } from './blob-header.js';

/** One shard's blob as read back: its header, its first start event, and each case's final result. */
export interface Blob {
  /** The path as the user gave it (or as found in the folder), for messages. */
  file: string;
  header: BlobHeader;
  /** The start event of the shard's first run; a resumed shard's later ones say the same. */
  start?: StartEvent;
  /** Each case's last `result` line: a case a resume ran again is the resumed run's. */
  results: Map<string, ResultEvent>;
  /** The last summary, marking when the shard (or its last resume) ended. */
  summary?: SummaryEvent;
}

/**
 * Reads a blob line by line. A last line cut short (a shard killed mid-write) is left out, as every
 * other line of a killed shard is whole; a line that is not a JSON object anywhere else is an error
 * naming the file and line.
 */
export async function readBlob(path: string, shown: string): Promise<Blob> {
  await fileExists(path, shown);
  let blob: Blob | undefined;
  let broken: { line: number; reason: string } | undefined;
  let lineNumber = 0;
  for await (const line of linesOf(path)) {
    lineNumber++;
    if (!line) continue;
    if (broken) throw blobInvalid(shown, `not a JSON object (${broken.reason})`, broken.line);
    const event = parseLine(line);
    if (typeof event === 'string') {
      broken = { line: lineNumber, reason: event };
      continue;
    }
    if (!blob) blob = { file: shown, header: checkHeader(event, shown), results: new Map() };
    else addEvent(blob, event, shown, lineNumber);
  }
  if (!blob)
    throw blobInvalid(
      shown,
      broken ? 'its first line is cut short: the shard was stopped before it wrote anything' : 'the file is empty',
    );
  return blob;
}

type Loose = Record<string, unknown>;

function addEvent(blob: Blob, event: Loose, shown: string, line: number): void {
  switch (event.type) {
    case 'start':
      blob.start ??= event as unknown as StartEvent;
      return;
    case 'result':
      if (typeof event.id !== 'string' || !Array.isArray(event.runs))
        throw blobInvalid(shown, 'a "result" line without its "id" and "runs"', line);
      // A case a hard stop (SIGTERM, a second Ctrl-C) cut short is not finished: a resume runs it again.
      if (!stoppedByHand(event as unknown as ResultEvent)) blob.results.set(event.id, event as unknown as ResultEvent);
      return;
    case 'summary':
      blob.summary = event as unknown as SummaryEvent;
      return;
    default:
  }
}

/** The kernel's words for a run a hard stop ended, and for a case stopped before its first run. */
const STOPPED = new Set(['run interrupted', 'run interrupted before it started']);

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

/** The file's lines, read in large chunks: a blob of 100k results is tens of MB; readline costs a regex a line. */
async function* linesOf(path: string): AsyncGenerator<string> {
  let rest = '';
  for await (const chunk of createReadStream(path, { encoding: 'utf8', highWaterMark: 1 << 20 })) {
    const text = rest + (chunk as string);
    let start = 0;
    for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
      yield text.charCodeAt(end - 1) === 13 ? text.slice(start, end - 1) : text.slice(start, end);
      start = end + 1;
    }
    rest = text.slice(start);
  }
  if (rest) yield rest;
}

async function fileExists(path: string, shown: string): Promise<void> {
  const found = await stat(path).catch(() => undefined);
  if (!found?.isFile())
    throw blobInvalid(shown, found ? 'is not a file' : 'not found: pass the blobs a sharded run wrote into --blob-dir');
}
