import { relative } from 'node:path';
import { AgentestError, type RunScope } from '@agentest/kernel';
import { findSecret } from '@agentest/kernel/secrets';
import { caseFile, hasCassettes, readCassette, suiteCassetteDir, writeCassette } from './cassette-file.js';
import { samePosition, type CallKind, type CallPosition, type CassetteEntry } from './entry.js';
import { missError } from './miss.js';
import type { Recorded } from './tape.js';

/**
 * `off`: live calls only; `record`: call and store; `replay`: stored only; `auto`: replay what is
 * stored, record the rest.
 */
export type CassetteMode = 'off' | 'record' | 'replay' | 'auto';
export const CASSETTE_MODES: readonly CassetteMode[] = ['off', 'record', 'replay', 'auto'];

export interface CassetteOptions {
  /** The mode asked for (a flag or the config); absent means `off`, or lockdown on CI. */
  mode?: CassetteMode;
  /** Cassettes under `<dir>/<suite>/` instead of beside each suite. */
  dir?: string;
  cwd: string;
  /** `CI` is set: a suite with cassettes is replayed strictly unless `--record` or `--cassettes off`. */
  ci: boolean;
  /** `--replay-timing`: replayed calls take the time they took when recorded. */
  timing?: boolean;
}

/** The mode a suite gets, and why, for messages. */
interface SuiteMode {
  mode: CassetteMode;
  dir: string;
  why: string;
}

/** One case's cassette while it runs: what was stored, what this run records, and the call counters. */
interface CaseTape {
  path: string;
  mode: SuiteMode;
  stored?: Promise<CassetteEntry[]>;
  recorded: CassetteEntry[];
  /** Stored entries already replayed in this run. */
  used: Set<CassetteEntry>;
  counters: Map<string, number>;
  /** Why nothing of this case may be written (a secret was seen). */
  poisoned?: string;
  /** The clock its prompts read, once asked for. */
  clock?: Date;
}

/**
 * The cassettes of one run. Calls find their case through the kernel's run scope; each case's file
 * is read on its first call and written once the case is over (`finish`), so a case that turns out
 * to carry a secret never reaches the disk.
 */
export class CassetteSession {
  private readonly suites = new Map<string, SuiteMode>();
  private readonly cases = new Map<string, CaseTape>();
  private readonly writes = new Set<Promise<void>>();

  constructor(readonly options: CassetteOptions) {}

  get timing(): boolean {
    return this.options.timing === true;
  }

  modeOf(scope: RunScope): CassetteMode {
    return this.tapeOf(scope).mode.mode;
  }

  /** The position of the next call of this kind in the scope's case, run and turn. */
  next(scope: RunScope, kind: CallKind, role = scope.role): CallPosition {
    const tape = this.tapeOf(scope);
    const counter = `${kind}|${role}|${scope.run}|${scope.turn}`;
    const call = (tape.counters.get(counter) ?? 0) + 1;
    tape.counters.set(counter, call);
    return { kind, role, run: scope.run, turn: scope.turn, call };
  }

  /**
   * The stored call for this one: the entry at its position with its request; else the first unused
   * entry with its request in the same run, turn and role, so calls made concurrently (judge samples,
   * parallel tools) replay whatever order they start in. Each entry answers once.
   */
  async find(scope: RunScope, position: CallPosition, sha: string): Promise<CassetteEntry | undefined> {
    const stored = await this.storedOf(scope);
    const used = this.tapeOf(scope).used;
    const free = (entry: CassetteEntry) => entry.sha === sha && !used.has(entry);
    const found =
      stored.find((entry) => free(entry) && samePosition(entry, position)) ??
      stored.find((entry) => free(entry) && samePosition(entry, { ...position, call: entry.call }));
    if (found) used.add(found);
    return found;
  }

  /**
   * The time a case's prompts see (`$SYS.DATE`): when it replays, the time it was recorded, so that a
   * date in a prompt does not make yesterday's cassette miss; when it records, now, kept in its file.
   */
  async clock(scope: RunScope): Promise<Date> {
    const tape = this.tapeOf(scope);
    if (tape.clock) return tape.clock;
    const mode = tape.mode.mode;
    const recorded =
      mode === 'replay' || mode === 'auto'
        ? (await this.storedOf(scope)).find((entry) => entry.clock)?.clock
        : undefined;
    tape.clock ??= recorded ? new Date(recorded) : new Date();
    return tape.clock;
  }

  /** The error for a call in replay that has no recording: the closest stored call and how it differs. */
  async miss(scope: RunScope, position: CallPosition, request: unknown): Promise<AgentestError> {
    const tape = this.tapeOf(scope);
    return missError({
      scope,
      position,
      request,
      path: this.shown(tape.path),
      why: tape.mode.why,
      stored: await this.storedOf(scope),
    });
  }

  /**
   * Keeps a live call for the case's file. A request or reply that holds a configured secret (or the
   * connector's key) poisons the case: nothing of it is written, and the call fails saying why.
   */
  record(
    scope: RunScope,
    entry: Omit<CassetteEntry, keyof Recorded> & { recorded: Recorded | undefined },
    secrets: readonly (string | undefined)[] = [],
  ): void {
    const tape = this.tapeOf(scope);
    const { recorded, ...rest } = entry;
    const line: CassetteEntry = { ...rest, ...recorded };
    const text = JSON.stringify(line);
    const secret = findSecret(text) ?? secrets.find((s) => s !== undefined && s.length >= 4 && text.includes(s));
    if (secret !== undefined) {
      tape.poisoned = `its ${entry.role} ${entry.kind} call ${entry.call} of run ${entry.run} (${entry.source}) carries a configured secret in its ${JSON.stringify(line.request).includes(secret) ? 'request' : 'reply'}`;
      throw new AgentestError(
        'CASSETTE_SECRET',
        `case "${scope.caseId}": ${tape.poisoned}, so the case is not recorded and nothing of it is written to ${this.shown(tape.path)}; keep keys out of prompts and tool data`,
        { where: this.shown(tape.path) },
      );
    }
    tape.recorded.push(line);
  }

  /** The case is over: its file is written (in the background; `close` waits) unless it holds nothing new. */
  finish(caseId: string): void {
    const tape = this.cases.get(caseId);
    if (!tape) return;
    this.cases.delete(caseId);
    if (tape.poisoned || !tape.recorded.length) return;
    const write = this.write(tape).finally(() => this.writes.delete(write));
    this.writes.add(write);
  }

  /** Waits for every file being written; the first failure is thrown. */
  async close(): Promise<void> {
    const results = await Promise.allSettled([...this.writes]);
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
  }

  private async write(tape: CaseTape): Promise<void> {
    // `record` replaces the case's file; `auto` keeps what it replayed and adds what it recorded.
    const kept =
      tape.mode.mode === 'auto'
        ? (await (tape.stored ?? readCassette(tape.path))).filter(
            (old) => !tape.recorded.some((line) => samePosition(line, old)),
          )
        : [];
    const clock = tape.clock?.toISOString();
    const lines = [...kept, ...tape.recorded].sort(byPosition);
    await writeCassette(tape.path, clock ? lines.map((line) => ({ ...line, clock })) : lines);
  }

  /** A cassette's path as messages show it: relative to the working directory. */
  private shown(path: string): string {
    return relative(this.options.cwd, path) || path;
  }

  private storedOf(scope: RunScope): Promise<CassetteEntry[]> {
    const tape = this.tapeOf(scope);
    return (tape.stored ??= readCassette(tape.path));
  }

  private tapeOf(scope: RunScope): CaseTape {
    let tape = this.cases.get(scope.caseId);
    if (!tape) {
      const mode = this.suiteMode(scope.file);
      tape = { path: caseFile(mode.dir, scope.caseId), mode, recorded: [], used: new Set(), counters: new Map() };
      this.cases.set(scope.caseId, tape);
    }
    return tape;
  }

  /** Lockdown: with `CI` set and cassettes on disk, no flag and `--cassettes auto` both mean strict replay. */
  private suiteMode(file: string): SuiteMode {
    let mode = this.suites.get(file);
    if (!mode) {
      const dir = suiteCassetteDir(file, this.options.dir, this.options.cwd);
      const asked = this.options.mode;
      const lockdown = this.options.ci && (asked === undefined || asked === 'auto') && hasCassettes(dir);
      mode = lockdown
        ? { mode: 'replay', dir, why: 'lockdown: CI is set and the suite has cassettes' }
        : { mode: asked ?? 'off', dir, why: asked === 'replay' ? '--replay' : `--cassettes ${asked ?? 'off'}` };
      this.suites.set(file, mode);
    }
    return mode;
  }
}

/** Runs and turns in order; inside one, the order the calls ended (a stable sort keeps it). */
function byPosition(a: CassetteEntry, b: CassetteEntry): number {
  return a.run - b.run || a.turn - b.turn;
}
