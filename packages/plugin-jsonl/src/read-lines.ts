import { isUtf8 } from 'node:buffer';
import { open } from 'node:fs/promises';

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
 * Bytes read at a time, into one buffer reused for every read: each read is a round trip to the
 * thread pool, and on a busy machine the wait for it is most of a small read's cost. The lines are
 * decoded out of the buffer before the next read, so the file's size does not change the memory used.
 */
const CHUNK_BYTES = 1 << 20;

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
  const file = await open(path, 'r');
  const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  try {
    for (;;) {
      const { bytesRead } = await file.read(buffer, 0, CHUNK_BYTES, null);
      if (bytesRead === 0) break;
      const chunk = buffer.subarray(0, bytesRead);
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
          // A copy: the buffer is read into again.
          carried.push(Buffer.from(chunk.subarray(start)));
        }
      } catch (error) {
        if (batch.length) yield batch;
        throw error;
      }
      if (batch.length) yield batch;
    }
    if (carriedBytes) yield [{ number: number + 1, text: decode(Buffer.concat(carried), number + 1) }];
  } finally {
    await file.close();
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
