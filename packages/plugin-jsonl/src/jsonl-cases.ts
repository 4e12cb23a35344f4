import { AgentestError, type TestCase } from '@agentest/kernel';
import { stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { caseRules, type CaseRuleOptions, type CaseRules } from './case-rules.js';
import { IdSet } from './id-set.js';
import { parseCase } from './parse-case.js';
import { LineError, readLineBatches, readLines, type Line } from './read-lines.js';

/** What one pass needs to know about the file, and the rules its lines are checked against. */
export interface CaseFile extends CaseRuleOptions {
  /** Absolute path of the file. */
  path: string;
  /** The file as messages and `source.file` name it. */
  file: string;
  maxLineBytes: number;
  /** Where relative `file://` paths start (default: the file's folder). */
  baseDir?: string;
  /** The largest file whose cases the checking pass keeps for the next pass (default `KEEP_CASES_BYTES`). */
  keepCasesBytes?: number;
}

/** What the passes over one suite's file share: the version of the file a complete pass vouched for. */
export interface PassMemory {
  stamp?: string;
  /** The cases that pass built, for the next pass over the unchanged file to hand out as they are. */
  kept?: TestCase[];
}

/**
 * Files up to this size have their cases kept between the checking pass and the next one (the run),
 * which then parses nothing. A parsed case takes about twice the memory of its line: at most some
 * 75 MB, for about 140k small cases. Larger files are parsed again, in constant memory.
 */
export const KEEP_CASES_BYTES = 32 << 20;

const DONE: IteratorReturnResult<undefined> = Object.freeze({ value: undefined, done: true });

/**
 * One pass over a JSONL file, case by case. The file is read a chunk at a time, and the cases of a
 * chunk are handed out without an asynchronous step each (an async generator takes several
 * microtasks per case, a large part of a fast suite's cost). Callers may ask for the next case
 * before the previous answer arrived (the kernel's lanes do): they are answered in the order asked.
 *
 * Only fingerprints of the ids seen so far are kept, to report duplicates. Once a whole pass found
 * every line valid and no duplicate, later passes over the unchanged file (same inode, size,
 * modification and change times) skip that bookkeeping and the checks that already passed; the
 * first of them hands out the cases that pass built, when the file is small enough for it to keep them.
 */
export class JsonlCases implements AsyncIterableIterator<TestCase> {
  private readonly baseDir: string;
  private readonly rules: CaseRules;
  private batches?: AsyncGenerator<Line[]>;
  private lines: readonly Line[] = [];
  private index = 0;
  private ended = false;
  /** Set while a chunk is read or a duplicate confirmed: later callers wait for it. */
  private busy?: Promise<unknown>;
  private stamp?: string;
  private size = 0;
  /** This pass checks every line; otherwise an earlier pass did, on this very file. */
  private checking = true;
  private seen?: IdSet;
  /** The cases this checking pass builds, kept for the next pass. */
  private keeping?: TestCase[];
  /** The cases an earlier pass kept, handed out (and let go) in order instead of reading the file. */
  private replay?: (TestCase | undefined)[];
  private replayed = 0;

  constructor(
    private readonly source: CaseFile,
    private readonly memory: PassMemory,
  ) {
    this.baseDir = source.baseDir ?? dirname(source.path);
    this.rules = caseRules(this.baseDir, source);
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<TestCase>> {
    if (this.busy)
      return this.busy.then(
        () => this.next(),
        () => this.next(),
      );
    if (this.replay) return Promise.resolve(this.nextKept(this.replay));
    try {
      while (this.index < this.lines.length) {
        const testCase = this.read(this.lines[this.index++]!);
        if (testCase === undefined) continue;
        if (testCase instanceof Promise)
          return this.whileBusy(testCase).then((value) => ({ value: this.keep(value), done: false }));
        return Promise.resolve({ value: this.keep(testCase), done: false });
      }
    } catch (error) {
      return this.fail(error);
    }
    if (this.ended) return Promise.resolve(DONE);
    return this.whileBusy(this.refill()).then(() => this.next());
  }

  async return(): Promise<IteratorResult<TestCase>> {
    this.finish();
    await this.batches?.return(undefined);
    return DONE;
  }

  /** The pass is over: its id table is given back now, not at some later garbage collection. */
  private finish(): void {
    this.ended = true;
    this.lines = [];
    this.seen?.release();
    this.seen = undefined;
    this.keeping = this.replay = undefined;
  }

  private keep(testCase: TestCase): TestCase {
    this.keeping?.push(testCase);
    return testCase;
  }

  /** The next kept case; the pass lets go of each as it hands it out. */
  private nextKept(cases: (TestCase | undefined)[]): IteratorResult<TestCase> {
    if (this.replayed === cases.length) {
      this.finish();
      return DONE;
    }
    const value = cases[this.replayed]!;
    cases[this.replayed++] = undefined;
    return { value, done: false };
  }

  /** Runs `work` with later callers queued behind it; a failure ends the pass. */
  private whileBusy<T>(work: Promise<T>): Promise<T> {
    const done = work.then(
      (value) => {
        this.busy = undefined;
        return value;
      },
      (error: unknown) => {
        this.busy = undefined;
        return this.fail(error);
      },
    );
    this.busy = done;
    return done;
  }

  private async fail(error: unknown): Promise<never> {
    await this.return();
    throw asLoadError(error, this.source.path, this.source.file);
  }

  /**
   * The next chunk's lines; at the end of the file, a pass that checked every line vouches for it
   * (and leaves the cases it kept). A pass over the unchanged file after it takes those cases instead.
   */
  private async refill(): Promise<void> {
    if (!this.batches) {
      const { stamp, size } = await fileStamp(this.source.path);
      this.stamp = stamp;
      this.size = size;
      this.checking = stamp === undefined || stamp !== this.memory.stamp;
      const kept = this.memory.kept;
      this.memory.kept = undefined;
      if (kept && !this.checking) {
        this.replay = kept;
        return;
      }
      if (this.checking && stamp !== undefined && size <= (this.source.keepCasesBytes ?? KEEP_CASES_BYTES))
        this.keeping = [];
      this.batches = readLineBatches(this.source.path, this.source.maxLineBytes);
    }
    const step = await this.batches.next();
    if (this.ended) return;
    if (step.done) {
      const kept = this.keeping;
      this.finish();
      if (this.checking) Object.assign(this.memory, { stamp: this.stamp, kept });
      return;
    }
    this.lines = step.value;
    this.index = 0;
    if (this.checking && !this.seen) this.seen = new IdSet(expectedLines(this.size, step.value));
  }

  /** One line's case; `undefined` for a blank or comment line, a promise while a duplicate id is confirmed. */
  private read({ number, text }: Line): TestCase | undefined | Promise<TestCase> {
    const trimmed = text.trim();
    if (!trimmed || trimmed.startsWith('//')) return undefined;
    const testCase = parseCase(trimmed, {
      file: this.source.file,
      line: number,
      baseDir: this.baseDir,
      rules: this.rules,
      checked: !this.checking,
    });
    if (!this.seen) return testCase;
    if (this.seen.full)
      return this.grown(number).then(() => this.unique(testCase, number, this.seen?.add(testCase.id) ?? false));
    return this.seen.add(testCase.id) ? this.unique(testCase, number, true) : testCase;
  }

  /** A larger id set, for when the first chunk made the file look shorter than it is. */
  private async grown(before: number): Promise<void> {
    const { path, maxLineBytes } = this.source;
    const smaller = this.seen!;
    const larger = await idsBefore(path, maxLineBytes, before, new IdSet(smaller.capacity * 2));
    smaller.release();
    if (this.ended) larger.release();
    else this.seen = larger;
  }

  /** The case, once its id is known to be new: a fingerprint match is confirmed against the file itself. */
  private async unique(testCase: TestCase, number: number, maybeSeen: boolean): Promise<TestCase> {
    const first = maybeSeen
      ? await firstUse(this.source.path, this.source.maxLineBytes, testCase.id, number)
      : undefined;
    if (first === undefined) return testCase;
    const where = `${this.source.file}:${number}`;
    throw new AgentestError(
      'DUPLICATE_CASE_ID',
      `${where}: duplicate id "${testCase.id}" (first used on line ${first}) — give every case a unique id`,
      { where },
    );
  }
}

/** What identifies one version of the file (`undefined` when it cannot be read: the read reports why), and its size. */
async function fileStamp(path: string): Promise<{ stamp?: string; size: number }> {
  const info = await stat(path, { bigint: true }).catch(() => undefined);
  return info
    ? { stamp: `${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`, size: Number(info.size) }
    : { size: 0 };
}

/** The file's line count, judged from its size and the lines of the first chunk, with room to spare. */
function expectedLines(fileBytes: number, firstLines: readonly Line[]): number {
  let chars = 0;
  for (const line of firstLines) chars += line.text.length + 1;
  return Math.ceil((fileBytes / Math.max(chars, 1)) * firstLines.length * 1.25);
}

/**
 * A larger id set holding the ids of the lines before `before`. Those lines parsed once already, so
 * only their ids are read.
 */
async function idsBefore(path: string, maxLineBytes: number, before: number, ids: IdSet): Promise<IdSet> {
  for await (const lines of readLineBatches(path, maxLineBytes)) {
    for (const { number, text } of lines) {
      if (number >= before) return ids;
      const trimmed = text.trim();
      if (trimmed && !trimmed.startsWith('//')) ids.add((JSON.parse(trimmed) as { id: string }).id);
    }
  }
  return ids;
}

/**
 * The line before `before` where `id` was first used, or `undefined` if none: the id set only keeps
 * fingerprints, so a possible duplicate is confirmed (and its first line found) by reading the
 * lines before it again, which happens once for a real duplicate (the load stops there) and almost
 * never otherwise. Those lines parsed once already, so only their ids are looked at.
 */
async function firstUse(path: string, maxLineBytes: number, id: string, before: number): Promise<number | undefined> {
  for await (const { number, text } of readLines(path, maxLineBytes)) {
    if (number >= before) return undefined;
    const trimmed = text.trim();
    if (!trimmed || trimmed.startsWith('//')) continue;
    if ((JSON.parse(trimmed) as { id?: unknown }).id === id) return number;
  }
  return undefined;
}

function asLoadError(error: unknown, path: string, file: string): unknown {
  if (error instanceof AgentestError) return error;
  if (error instanceof LineError) {
    const where = `${file}:${error.line}`;
    return new AgentestError('INPUT_INVALID', `${where}: ${error.message}`, { where });
  }
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT')
    return new AgentestError('INPUT_NOT_FOUND', `input file not found: ${path} — check the -i path`, { where: '-i' });
  if (code === 'EISDIR')
    return new AgentestError(
      'INPUT_INVALID',
      `${path} is a directory, not a JSONL file — pass the .jsonl file itself`,
      { where: '-i' },
    );
  return new AgentestError('INPUT_INVALID', `${file}: cannot read the file (${(error as Error).message})`, {
    where: file,
    cause: error,
  });
}
