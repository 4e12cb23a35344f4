import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { HISTORY_FORMAT, type HistoryRecord } from './history-record.js';

/** The newest 200 runs within 20 MB, unless the config's `history` says otherwise. */
export const HISTORY_DEFAULTS = { maxRuns: 200, maxBytes: 20 * 1024 * 1024 } as const;

export interface HistoryLimits {
  maxRuns?: number;
  maxBytes?: number;
}

/** What reading the history found: the records, oldest first, and the files it could not read. */
export interface HistoryListing {
  records: HistoryRecord[];
  unreadable: { file: string; reason: string }[];
}

const RECORD_FILE = /^\d{8}T\d{9}Z-[0-9a-z]+\.json$/;

/**
 * The history folder: one plain JSON file per run, named by its record id so that names sort by
 * time. Appending writes a temporary file and renames it, so a reader never sees half a record; then
 * the oldest runs are removed until both limits hold. A file that cannot be read is reported, never fatal.
 */
export class HistoryStore {
  readonly maxRuns: number;
  readonly maxBytes: number;

  constructor(
    readonly dir: string,
    limits: HistoryLimits = {},
  ) {
    this.maxRuns = limits.maxRuns ?? HISTORY_DEFAULTS.maxRuns;
    this.maxBytes = limits.maxBytes ?? HISTORY_DEFAULTS.maxBytes;
  }

  async list(): Promise<HistoryListing> {
    const listing: HistoryListing = { records: [], unreadable: [] };
    for (const file of await this.files()) {
      try {
        const record = JSON.parse(await readFile(join(this.dir, file), 'utf8')) as HistoryRecord;
        if (record?.format !== HISTORY_FORMAT || !Array.isArray(record.cases))
          throw new Error('not an agentest history record');
        listing.records.push(record);
      } catch (error) {
        listing.unreadable.push({ file, reason: (error as Error).message });
      }
    }
    return listing;
  }

  /** Writes the record and prunes the oldest ones; returns how many were removed. */
  async append(record: HistoryRecord): Promise<{ file: string; pruned: number }> {
    await mkdir(this.dir, { recursive: true });
    const text = `${JSON.stringify(record)}\n`;
    const bytes = Buffer.byteLength(text);
    if (bytes > this.maxBytes)
      throw new Error(
        `the record of this run takes ${bytes} bytes, more than history.maxBytes (${this.maxBytes}); raise the limit`,
      );
    const file = join(this.dir, `${record.id}.json`);
    const temporary = `${file}.${process.pid}.tmp`;
    await writeFile(temporary, text);
    await rename(temporary, file);
    return { file, pruned: await this.prune() };
  }

  /** Removes the oldest records until at most `maxRuns` remain within `maxBytes`. */
  private async prune(): Promise<number> {
    const files = await this.files();
    const sizes = await Promise.all(files.map(async (f) => (await stat(join(this.dir, f))).size));
    let total = sizes.reduce((a, b) => a + b, 0);
    let removed = 0;
    // The newest record (the one just written) always stays.
    while (files.length - removed > 1 && (files.length - removed > this.maxRuns || total > this.maxBytes)) {
      await rm(join(this.dir, files[removed]!), { force: true });
      total -= sizes[removed]!;
      removed++;
    }
    return removed;
  }

  private async files(): Promise<string[]> {
    try {
      return (await readdir(this.dir)).filter((f) => RECORD_FILE.test(f)).sort();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
  }
}

/** A record id: the UTC time to the millisecond, then a random suffix so that two runs in one millisecond differ. */
export function recordId(at: Date): string {
  const stamp = at.toISOString().replace(/[-:.]/g, '');
  return `${stamp}-${Math.random().toString(36).slice(2, 8)}`;
}
