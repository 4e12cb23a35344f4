import { createHash } from 'node:crypto';
import { extname, resolve } from 'node:path';
import type { Status, TestCase } from '@agentest/kernel';
import { safeStringify } from '@agentest/common';

/** What the next run takes: every case, the failed ones, the same as last time, or those a change touched. */
export type Rerun =
  { kind: 'all' } | { kind: 'failed' } | { kind: 'again' } | { kind: 'changed'; files: ReadonlySet<string> };

/** Whether the run takes a case; asked by the kernel through the plan's `include`. */
export type CaseSelection = (testCase: TestCase) => boolean;

/** Case files whose cases are compared one by one; in any other case file a change reruns the whole file. */
const LINE_CASE_FILES = new Set(['.jsonl']);

/**
 * What the watch loop knows of the suite from its last run: each case's content and file, and how it
 * ended. It decides which cases a change affects:
 *
 * - a changed `.jsonl` case file: its cases whose content changed (new ones included), and its cases
 *   that did not pass last time;
 * - another file that cases come from (a `test()` file): all of that file's cases;
 * - any other file (a script, hook, prompt, assistant file): every case, since which cases use it is
 *   not known.
 */
export class AffectedCases {
  /** Content fingerprint and absolute source file of every case seen in the last run. */
  private seen = new Map<string, { fingerprint: string; file: string }>();
  private statuses = new Map<string, Status>();
  private ranLast = new Set<string>();

  constructor(private readonly cwd: string) {}

  /** Records how a case ended (the run's `result` events). */
  record(id: string, status: Status): void {
    this.statuses.set(id, status);
  }

  /** Whether cases of the last run come from this file (absolute). */
  isCaseFile(file: string): boolean {
    for (const seen of this.seen.values()) if (seen.file === file) return true;
    return false;
  }

  failedIds(): string[] {
    return [...this.statuses].filter(([, status]) => isFailure(status)).map(([id]) => id);
  }

  /**
   * The selection for the next run. It also notes each case it is asked about, so that the run after
   * compares with the cases as this one saw them.
   */
  selection(rerun: Rerun): CaseSelection {
    const before = this.seen;
    const after = new Map<string, { fingerprint: string; file: string }>();
    const ran = new Set<string>();
    this.seen = after;
    const previous = this.ranLast;
    this.ranLast = ran;
    const takes = this.rule(rerun, before, previous);
    return (testCase) => {
      const now = { fingerprint: fingerprintOf(testCase), file: resolve(this.cwd, testCase.source.file) };
      after.set(testCase.id, now);
      const taken = takes(testCase, now, before.get(testCase.id));
      if (taken) ran.add(testCase.id);
      return taken;
    };
  }

  private rule(
    rerun: Rerun,
    before: ReadonlyMap<string, { fingerprint: string; file: string }>,
    previous: ReadonlySet<string>,
  ): (testCase: TestCase, now: { fingerprint: string; file: string }, was?: { fingerprint: string }) => boolean {
    if (rerun.kind === 'all') return () => true;
    if (rerun.kind === 'again') return (testCase) => previous.has(testCase.id);
    if (rerun.kind === 'failed') return (testCase) => isFailure(this.statuses.get(testCase.id));
    const caseFiles = new Set([...before.values()].map((seen) => seen.file));
    // A change to anything that is not a case file may affect any case.
    if ([...rerun.files].some((file) => !caseFiles.has(file))) return () => true;
    return (testCase, now, was) => {
      if (!rerun.files.has(now.file)) return false;
      if (!LINE_CASE_FILES.has(extname(now.file).toLowerCase())) return true;
      return was?.fingerprint !== now.fingerprint || isFailure(this.statuses.get(testCase.id));
    };
  }
}

function isFailure(status: Status | undefined): boolean {
  return status === 'failed' || status === 'error' || status === 'timeout';
}

/** The case's content, wherever it sits in its file: moving a line is no change. */
function fingerprintOf(testCase: TestCase): string {
  const { source: _source, ...content } = testCase;
  return createHash('sha1')
    .update(safeStringify(content) ?? '')
    .digest('base64');
}
