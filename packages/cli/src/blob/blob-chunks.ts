import { open } from 'node:fs/promises';

/**
 * How many bytes a blob is read in at a time: its lines are cut from each chunk's text, which the
 * lines kept for the merge share. Under 1 MB on purpose: Node makes a longer Latin-1 string an
 * external one, whose memory makes V8 run a full collection every few chunks (13 of them for the
 * 77 MB of the merge bench's blobs against 3).
 */
export const CHUNK_BYTES = 960 * 1024;

const NEWLINE = 0x0a;

/**
 * A file's bytes, a chunk at a time, each chunk ending at a line end (`\n`), except the file's last
 * when the file does not end with one. The line a read cuts in two is carried whole into the next
 * chunk (one line copied per chunk, never a chunk joined to another), in a larger chunk when it is
 * longer than one. The next chunk is read while the caller goes through this one: reading the disk
 * (libuv's pool) overlaps the work on the lines.
 */
export async function* chunksOf(path: string, chunkBytes = CHUNK_BYTES): AsyncGenerator<Buffer> {
  const file = await open(path, 'r');
  let buffer = Buffer.allocUnsafe(chunkBytes);
  let reading = file.read(buffer, 0, buffer.length, null);
  try {
    for (let carried = 0; ;) {
      const { bytesRead } = await reading;
      const size = carried + bytesRead;
      if (bytesRead === 0) {
        if (size) yield buffer.subarray(0, size);
        return;
      }
      const whole = buffer.lastIndexOf(NEWLINE, size - 1) + 1;
      carried = size - whole;
      const next = Buffer.allocUnsafe(Math.max(chunkBytes, 2 * carried));
      buffer.copy(next, 0, whole, size);
      reading = file.read(next, carried, next.length - carried, null);
      if (whole) yield buffer.subarray(0, whole);
      buffer = next;
    }
  } finally {
    // A caller that stops early (a broken line) leaves a read in flight: the file closes after it.
    await reading.catch(() => undefined);
    await file.close();
  }
}
