import { relative } from 'node:path';
import { redactSecrets } from '@agentest/kernel/secrets';
import { writeFileAtomic } from '@agentest/report';
import {
  canonicalJson,
  entryId,
  readSnapshots,
  serialiseSnapshots,
  snapshotFile,
  type SnapshotEntry,
} from './snapshot-file.js';

export interface SnapshotStoreOptions {
  /** `--update`: a snapshot that differs is replaced, and a full run removes obsolete entries. */
  update: boolean;
  /** `CI` is set: a missing snapshot is a failure instead of a write. */
  ci: boolean;
  /** Where relative suite paths start. */
  cwd: string;
}

/** What comparing a value with its snapshot found. */
export type SnapshotCheck =
  | { status: 'matched' | 'written' | 'updated' }
  | { status: 'missing'; file: string }
  /** Compared only (a `--fuzz` variant against its case's snapshot), and there is none to compare with. */
  | { status: 'unrecorded'; file: string }
  | { status: 'mismatch'; file: string; stored: unknown };

/** A case's verdict as the store needs it: only cases that ran to their assertions vouch for their entries. */
export type CaseOutcome = 'evaluated' | 'not-evaluated';

interface SuiteSnapshots {
  path: string;
  stored: Map<string, SnapshotEntry>;
  /** What this run produced (or confirmed), by entry id. */
  produced: Map<string, SnapshotEntry>;
  changed: boolean;
}

/** What the summary says about snapshots. */
export interface SnapshotReport {
  written: number;
  updated: number;
  /** Entries no case of a full run produced: `<file>: <case> <key>`. Removed with `--update`. */
  obsolete: string[];
  removed: number;
}

/**
 * The snapshots of one run. Suites' files are read once, when first needed; everything is written
 * once, at the end (`flush`), each file atomically and in a fixed order.
 */
export class SnapshotStore {
  private readonly suites = new Map<string, Promise<SuiteSnapshots>>();
  /**
   * Per suite file seen, the cases that did not run to their assertions. Only those keep their entries
   * from being obsolete, so cases that were evaluated cost nothing here (a 1M-case run holds no table).
   */
  private readonly notEvaluated = new Map<string, Set<string>>();
  private readonly counts = { written: 0, updated: 0 };
  private readonly obsoleteIds = new Map<string, SnapshotEntry[]>();

  constructor(private readonly options: SnapshotStoreOptions) {}

  /**
   * Compares `value` with the snapshot `key` of a case; writes, updates or fails as the mode says.
   * Snapshot files are committed, so a configured secret (a connector key a reply echoes) is compared
   * and stored as `[redacted]`, as every report shows it: the file never holds the key.
   */
  async check(
    suiteFile: string,
    caseId: string,
    key: string,
    given: unknown,
    { compareOnly = false }: { compareOnly?: boolean } = {},
  ): Promise<SnapshotCheck> {
    const value = redactSecrets(given);
    const suite = await this.suite(suiteFile);
    const id = entryId(caseId, key);
    const entry: SnapshotEntry = { case: caseId, key, value };
    // A value seen earlier in this run (another run of the case) is what later runs must match.
    const known = suite.produced.get(id) ?? suite.stored.get(id);
    if (!known) {
      if (compareOnly) return { status: 'unrecorded', file: this.shown(suite.path) };
      if (this.options.ci && !this.options.update) return { status: 'missing', file: this.shown(suite.path) };
      this.keep(suite, id, entry, 'written');
      return { status: 'written' };
    }
    if (canonicalJson(known.value) === canonicalJson(value)) {
      suite.produced.set(id, known);
      return { status: 'matched' };
    }
    if (this.options.update && !compareOnly && !suite.produced.has(id)) {
      this.keep(suite, id, entry, 'updated');
      return { status: 'updated' };
    }
    suite.produced.set(id, known);
    return { status: 'mismatch', file: this.shown(suite.path), stored: known.value };
  }

  /** Records how a case ended, so that the end of a full run can tell which entries are obsolete. */
  caseEnded(suiteFile: string, caseId: string, outcome: CaseOutcome): void {
    let cases = this.notEvaluated.get(suiteFile);
    if (!cases) this.notEvaluated.set(suiteFile, (cases = new Set()));
    if (outcome === 'not-evaluated') cases.add(caseId);
  }

  /**
   * The summary of the run. With `full` (no `--run` filter, not interrupted), entries that no case
   * produced are obsolete: those of cases no longer in the suite, and those a case that ran to its
   * assertions did not produce. Entries of cases that were skipped or ended in an error stay.
   */
  async finish(full: boolean): Promise<SnapshotReport> {
    const obsolete: string[] = [];
    if (full) {
      for (const suiteFile of [...this.notEvaluated.keys()].sort()) {
        const suite = await this.suite(suiteFile).catch(() => undefined);
        // A file that cannot be read failed its snapshot assertions already; it has nothing to report.
        if (!suite) continue;
        const kept = this.notEvaluated.get(suiteFile)!;
        const stale = [...suite.stored.entries()]
          .filter(([id, entry]) => !suite.produced.has(id) && !kept.has(entry.case))
          .map(([, entry]) => entry);
        if (!stale.length) continue;
        this.obsoleteIds.set(suite.path, stale);
        obsolete.push(...stale.map((entry) => `${this.shown(suite.path)}: ${entry.case} ${entry.key}`));
      }
    }
    const removed = this.options.update ? obsolete.length : 0;
    return { ...this.counts, obsolete, removed };
  }

  /** Writes every file that changed (and, with `--update`, those that lost obsolete entries). */
  async flush(): Promise<void> {
    const read = await Promise.allSettled(this.suites.values());
    const suites = read.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    for (const suite of suites.sort((a, b) => (a.path < b.path ? -1 : 1))) {
      const stale = this.options.update ? (this.obsoleteIds.get(suite.path) ?? []) : [];
      if (!suite.changed && !stale.length) continue;
      const entries = new Map(suite.stored);
      for (const [id, entry] of suite.produced) entries.set(id, entry);
      for (const entry of stale) entries.delete(entryId(entry.case, entry.key));
      await writeFileAtomic(suite.path, serialiseSnapshots(entries.values()));
    }
  }

  private keep(suite: SuiteSnapshots, id: string, entry: SnapshotEntry, change: 'written' | 'updated'): void {
    suite.produced.set(id, entry);
    suite.changed = true;
    this.counts[change] += 1;
  }

  /** A snapshot file as messages name it: relative to the working directory when it is below it. */
  private shown(path: string): string {
    const rel = relative(this.options.cwd, path);
    return rel && !rel.startsWith('..') ? rel : path;
  }

  private suite(suiteFile: string): Promise<SuiteSnapshots> {
    let suite = this.suites.get(suiteFile);
    if (!suite) {
      const path = snapshotFile(suiteFile, this.options.cwd);
      suite = readSnapshots(path).then((stored) => ({ path, stored, produced: new Map(), changed: false }));
      this.suites.set(suiteFile, suite);
    }
    return suite;
  }
}
