import { isUtf8 } from 'node:buffer';
import { createReadStream } from 'node:fs';

export interface Line {
  /** 1-based line number. */
  number: number;
  text: string;
}

export class LineError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message);
  }
}

const NEWLINE = 0x0a;
/**
 * Bytes read at a time. Small enough for the allocator to reuse freed chunks as they are: a long run
 * reads tens of thousands of chunks, and larger ones left the process's heap fragmented (a few MB
 * more peak memory over a million cases), at no measurable gain in speed.
 */
const CHUNK_BYTES = 1 << 15;

/**
 * Streams a file's lines without ever holding more than one line (and one chunk) in memory. Lines are
 * split on raw bytes rather than through `readline`, so that invalid UTF-8 is an error naming its
 * line (a decoder would silently turn it into U+FFFD) and an overlong line is caught before it is
 * buffered whole. A trailing `\r` and a leading byte-order mark are dropped.
 */
export async function* readLines(path: string, maxLineBytes: number): AsyncGenerator<Line> {
  for await (const batch of readLineBatches(path, maxLineBytes)) yield* batch;
}

/**
 * The same lines, one array per chunk read: a consumer that handles a batch synchronously pays one
 * asynchronous step per chunk rather than one per line. A line that cannot be read ends its batch
 * early, and the error is thrown when the lines before it have been handed over.
 */
export async function* readLineBatches(path: string, maxLineBytes: number): AsyncGenerator<Line[]> {
  let number = 0;
  // Bytes of the current line carried over from earlier chunks.
  let carried: Buffer[] = [];
  let carriedBytes = 0;
  const stream = createReadStream(path, { highWaterMark: CHUNK_BYTES });
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      const batch: Line[] = [];
      try {
        let start = 0;
        let end: number;
        while ((end = chunk.indexOf(NEWLINE, start)) !== -1) {
          number++;
          if (carriedBytes + end - start > maxLineBytes) throw tooLong(number, maxLineBytes);
          const bytes = carriedBytes
            ? Buffer.concat([...carried, chunk.subarray(start, end)])
            : chunk.subarray(start, end);
          carried = [];
          carriedBytes = 0;
          batch.push({ number, text: decode(bytes, number) });
          start = end + 1;
        }
        if (start < chunk.length) {
          carriedBytes += chunk.length - start;
          if (carriedBytes > maxLineBytes) throw tooLong(number + 1, maxLineBytes);
          carried.push(chunk.subarray(start));
        }
      } catch (error) {
        if (batch.length) yield batch;
        throw error;
      }
      if (batch.length) yield batch;
    }
    if (carriedBytes) yield [{ number: number + 1, text: decode(Buffer.concat(carried), number + 1) }];
  } finally {
    stream.destroy();
  }
}

function decode(bytes: Buffer, line: number): string {
  let text = bytes.toString('utf8');
  // The decoder substitutes U+FFFD for bad bytes; only then is the (rarer) strict check worth it.
  if (text.includes('\uFFFD') && !isUtf8(bytes)) {
    throw new LineError(line, 'the line is not valid UTF-8 — save the file as UTF-8');
  }
  if (line === 1 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  return text.endsWith('\r') ? text.slice(0, -1) : text;
}

function tooLong(line: number, maxLineBytes: number): LineError {
  const size =
    maxLineBytes >= 1 << 20
      ? `${+(maxLineBytes / (1 << 20)).toFixed(2)} MiB`
      : `${+(maxLineBytes / 1024).toFixed(2)} KiB`;
  return new LineError(
    line,
    `the line is longer than ${size} — keep one case per line, and move large inputs to files referenced as "file://…" content parts`,
  );
}
