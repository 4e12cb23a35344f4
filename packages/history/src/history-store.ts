import { mkdir, open, readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { HISTORY_FORMAT, type HistoryRecord } from './history-record.js';
import { RecordWriter, type RecordFields } from './record-writer.js';

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
/** A record being written, by the process whose id it carries. */
const TEMPORARY_FILE = /^\d{8}T\d{9}Z-[0-9a-z]+\.json\.(\d+)\.tmp$/;

/**
 * The history folder: one plain JSON file per run, named by its record id so that names sort by
 * time. A record is written to a temporary file as the run goes and renamed when it is complete, so a
 * reader never sees half a record; then the oldest runs are removed until both limits hold. A file
 * that cannot be read is reported, never fatal.
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
        // Another run of the project pruned it between the listing and the read: it is gone, not unreadable.
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
        listing.unreadable.push({ file, reason: (error as Error).message });
      }
    }
    return listing;
  }

  /**
   * Starts this run's record: a temporary file beside the others that the run's cases are appended
   * to as they end (`RecordWriter`), holding `fields` before the cases and the rest once finished.
   */
  async begin(id: string, fields: Partial<RecordFields> = {}): Promise<RecordWriter> {
    await mkdir(this.dir, { recursive: true });
    await this.removeAbandoned();
    const file = join(this.dir, `${id}.json`);
    const temporary = `${file}.${process.pid}.tmp`;
    const handle = await open(temporary, 'w');
    const target = { file, temporary, maxBytes: this.maxBytes, afterRename: () => this.prune() };
    return new RecordWriter(handle, target, id, fields);
  }

  /** Writes a whole record and prunes the oldest ones; returns the file and how many were removed. */
  async append(record: HistoryRecord): Promise<{ file: string; pruned: number }> {
    const { format: _format, version: _version, id, cases, ...fields } = record;
    const writer = await this.begin(id);
    for (const entry of cases) await writer.add(entry);
    return writer.finish(fields);
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

  /** Records left half-written by runs that were killed: nothing else would ever remove them. */
  private async removeAbandoned(): Promise<void> {
    for (const name of await readdir(this.dir)) {
      const pid = TEMPORARY_FILE.exec(name)?.[1];
      if (pid && !running(Number(pid))) await rm(join(this.dir, name), { force: true });
    }
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

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A record id: the UTC time to the millisecond, then a random suffix so that two runs in one millisecond differ. */
export function recordId(at: Date): string {
  const stamp = at.toISOString().replace(/[-:.]/g, '');
  return `${stamp}-${Math.random().toString(36).slice(2, 8)}`;
}
