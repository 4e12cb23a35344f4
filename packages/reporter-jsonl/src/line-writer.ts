import { mkdir, open, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Writable } from 'node:stream';

/** Flush once this many characters are pending, without waiting for the next turn of the event loop. */
const HIGH_WATER = 64 * 1024;

/**
 * Appends lines to a file through a write stream. Lines written in the same turn of the event loop
 * are joined into one write (a million small writes would dominate a fast run), and a full stream
 * makes `write` wait for `drain`, so memory stays flat however fast events arrive. `close` flushes,
 * fsyncs and closes, so a finished run's file survives a crash of the machine.
 */
export class LineWriter {
  private handle?: FileHandle;
  private stream?: Writable;
  private pending = '';
  private scheduled = false;
  private draining?: Promise<void>;
  private failure?: Error;

  constructor(readonly path: string) {}

  async open(): Promise<void> {
    await mkdir(dirname(this.path), { recursive: true });
    this.handle = await open(this.path, 'w');
    this.stream = this.handle.createWriteStream({ autoClose: false, highWaterMark: HIGH_WATER });
    this.stream.on('error', (error) => (this.failure ??= error));
  }

  /** Queues one line; resolves at once unless the stream is full. */
  async write(line: string): Promise<void> {
    if (this.failure) throw this.failure;
    this.pending += line + '\n';
    if (this.pending.length >= HIGH_WATER) return this.flush();
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => void this.flush().catch((error: Error) => (this.failure ??= error)));
    }
    if (this.draining) await this.draining;
  }

  private async flush(): Promise<void> {
    this.scheduled = false;
    if (!this.pending || !this.stream) return;
    const chunk = this.pending;
    this.pending = '';
    if (!this.stream.write(chunk) && !this.draining) {
      this.draining = new Promise<void>((resolve) => this.stream!.once('drain', () => {
        this.draining = undefined;
        resolve();
      }));
    }
    if (this.draining) await this.draining;
  }

  async close(): Promise<void> {
    if (!this.stream || !this.handle) return;
    await this.flush();
    const stream = this.stream;
    this.stream = undefined;
    await new Promise<void>((resolve, reject) => {
      stream.once('error', reject);
      stream.end(resolve);
    });
    try {
      await this.handle.sync();
    } finally {
      await this.handle.close();
      this.handle = undefined;
    }
    if (this.failure) throw this.failure;
  }
}
