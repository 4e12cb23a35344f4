import { rename, rm, type FileHandle } from 'node:fs/promises';
import { historyCaseJson } from './history-case-json.js';
import { HISTORY_FORMAT, HISTORY_VERSION, type HistoryCase, type HistoryRecord } from './history-record.js';

/** A record's fields other than its cases; the writer puts some before the cases and the rest after. */
export type RecordFields = Omit<HistoryRecord, 'format' | 'version' | 'id' | 'cases'>;

/** Where a record is written, and what the store does once it is in place. */
export interface RecordTarget {
  /** The file written while the run goes, beside the record's own name. */
  temporary: string;
  file: string;
  maxBytes: number;
  /** Prunes the history once the record is in place; answers how many old records went. */
  afterRename: () => Promise<number>;
}

/** How much of the record is gathered in memory before it goes to the file (about 200 cases). */
const CHUNK_CHARS = 16 * 1024;

/**
 * One run's record, written to a temporary file case by case as the run goes, so that a run of a
 * million cases holds at most two chunks of it in memory, not a million entries. The file is the record's
 * one line of JSON (`{"format":…,"cases":[…],…}`, the same format readers always read); `finish`
 * completes it and renames it into place, so a reader never sees half a record. A record that grows
 * past `maxBytes` stops being written and `finish` refuses it, naming its size.
 */
export class RecordWriter {
  private chunk = '';
  private bytes = 0;
  private cases = 0;
  private written: Promise<void> = Promise.resolve();
  private writing = false;
  private failure: Error | undefined;
  private closed = false;

  constructor(
    private readonly handle: FileHandle,
    private readonly target: RecordTarget,
    id: string,
    head: Partial<RecordFields>,
  ) {
    // The record's opening up to the start of `cases`: `{"format":…,"id":…,…,"cases":[`.
    this.chunk = JSON.stringify({ format: HISTORY_FORMAT, version: HISTORY_VERSION, id, ...head, cases: [] }).slice(
      0,
      -2,
    );
    this.bytes = Buffer.byteLength(this.chunk);
  }

  /**
   * Adds a case. Answers with a promise only when a chunk is full: it goes to the file, or, while the
   * previous chunk is still being written, the caller waits for that. Parallel lanes therefore hold
   * at most two chunks between them, however long the run and however slow the disk.
   */
  add(entry: HistoryCase): void | Promise<void> {
    const text = `${this.cases++ ? ',' : ''}${historyCaseJson(entry)}`;
    this.bytes += Buffer.byteLength(text);
    if (this.failure || this.bytes > this.target.maxBytes) return;
    this.chunk += text;
    if (this.chunk.length < CHUNK_CHARS) return;
    return this.writing ? this.written : this.flush();
  }

  /**
   * Writes the remaining fields, closes the file and renames it into place; answers with the file and
   * how many old records were pruned.
   */
  async finish(fields: Partial<RecordFields>): Promise<{ file: string; pruned: number }> {
    const tail = `]${Object.keys(fields).length ? `,${JSON.stringify(fields).slice(1)}` : '}'}\n`;
    this.bytes += Buffer.byteLength(tail);
    if (this.bytes > this.target.maxBytes && !this.failure)
      this.failure = new Error(
        `the record of this run takes ${this.bytes} bytes, more than history.maxBytes (${this.target.maxBytes}); raise the limit`,
      );
    if (!this.failure) this.chunk += tail;
    await this.flush();
    await this.close();
    if (this.failure) {
      await rm(this.target.temporary, { force: true });
      throw this.failure;
    }
    await rename(this.target.temporary, this.target.file);
    return { file: this.target.file, pruned: await this.target.afterRename() };
  }

  /** Gives up the record (a run that ended without a summary): the temporary file is removed. */
  async discard(): Promise<void> {
    await this.written;
    await this.close();
    await rm(this.target.temporary, { force: true });
  }

  private flush(): Promise<void> {
    const text = this.chunk;
    this.chunk = '';
    if (!text || this.failure) return this.written;
    this.writing = true;
    this.written = this.written.then(async () => {
      try {
        if (!this.failure) await this.handle.write(text);
      } catch (error) {
        this.failure = error as Error;
      } finally {
        this.writing = false;
      }
    });
    return this.written;
  }

  private async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.written;
    await this.handle.close().catch((error: Error) => (this.failure ??= error));
  }
}
