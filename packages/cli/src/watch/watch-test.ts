import { dirname, resolve } from 'node:path';
import { defineReporter, isAgentestError, type TestCase } from '@agentest/kernel';
import { outcomeExitCode } from '../exit-code.js';
import type { RawFlags } from '../flags.js';
import { exitCodeOf, formatError, withCommandHelp } from '../print-error.js';
import { runTest, type CliIo } from '../run-test.js';
import { AffectedCases, type Rerun } from './affected-cases.js';
import { FileChanges } from './file-changes.js';
import { changedSince } from './stale-error.js';
import { KEY_HELP, listenForCommands, readsKeys, type WatchCommand } from './watch-keys.js';
import type { WatchSession } from './watch-session.js';

/** What the loop does next: run a selection, set up again (a file cases do not come from changed), or stop. */
type Next = Rerun | { kind: 'restart'; files: ReadonlySet<string> } | { kind: 'quit' };

/**
 * `agentest test --watch`: runs the suite, then waits. A changed case file reruns the cases it affects
 * (see `AffectedCases`). Any other change (the config, an adapter, a script, a prompt) sets the run up
 * again, so that code the config bundles is loaded afresh, and runs every case. Keys rerun all, the
 * failed cases or the last selection. The kernel, its reporters and the sandbox's threads stay up between runs. `q`,
 * Ctrl-C or SIGINT quits with the last run's exit code; one that interrupts a run exits 130.
 */
export async function watchTest(raw: RawFlags, io: CliIo): Promise<number> {
  const { keepScriptPoolsWarm } = await import('@agentest/plugin-script');
  const letGo = keepScriptPoolsWarm();
  const loop = new WatchLoop(io);
  try {
    return await loop.run(raw);
  } finally {
    loop.dispose();
    await letGo();
  }
}

class WatchLoop {
  private readonly affected: AffectedCases;
  private files?: FileChanges;
  private queued?: Next;
  private wake?: () => void;
  /** The run in progress: its interrupt and abort. */
  private running?: { interrupt: AbortController; abort: AbortController };
  private quitting = false;
  private runs = 0;
  private lastCode = 0;
  /** The files whose change set the run up again, for the first run of the new set-up. */
  private restartedBy?: ReadonlySet<string>;
  private readonly stopListening: () => void;

  constructor(private readonly io: CliIo) {
    this.affected = new AffectedCases(io.cwd);
    this.stopListening = listenForCommands(process.stdin, (command) => this.command(command));
  }

  async run(raw: RawFlags): Promise<number> {
    const recorder = defineReporter({
      name: 'agentest:watch',
      onResult: (event) => this.affected.record(event.id, event.status),
    });
    for (;;) {
      // Setting up writes files of its own (a TypeScript config's bundle beside it): nothing is watched then.
      this.files?.close();
      this.files = undefined;
      let code: number;
      const started = Date.now();
      try {
        code = await runTest(raw, this.io, { plugins: [recorder], serve: (session) => this.serve(session) });
        if (this.quitting) return code;
        continue;
      } catch (error) {
        // A config or suite that cannot be set up yet is shown, and the next change tries again; one
        // that changed again meanwhile (nothing is watched while setting up) is read again at once.
        if (!isAgentestError(error)) throw error;
        const stale = changedSince(error, this.io.cwd, started);
        if (stale) this.queue({ kind: 'restart', files: new Set([stale]) });
        else this.io.stderr.write(`${formatError(withCommandHelp(error, 'test'), this.io.env)}\n`);
        code = exitCodeOf(error);
      }
      if (this.quitting) return code;
      this.files = new FileChanges([this.io.cwd], (files) => this.queue({ kind: 'restart', files }));
      this.hint();
      const next = await this.next();
      if (next.kind === 'quit') return code;
      this.restartedBy = next.kind === 'restart' ? next.files : undefined;
    }
  }

  dispose(): void {
    this.files?.close();
    this.stopListening();
  }

  /** Runs one set-up until the user quits or its config changes. */
  private async serve(session: WatchSession): Promise<number> {
    // A base config outside those folders (`extends: '../shared/base.config.ts'`) is watched on its own.
    const bases = session.config.bases;
    this.files = new FileChanges(watchedFolders(session, this.io.cwd), (files) => this.changed(files), bases);
    this.files.ignore(session.outputs);
    let rerun: Rerun = this.restartedBy ? { kind: 'changed', files: this.restartedBy } : { kind: 'all' };
    this.restartedBy = undefined;
    for (;;) {
      const code = await this.runOnce(session, rerun);
      if (this.quitting) return code;
      this.hint();
      const next = await this.next();
      if (next.kind === 'quit') return code;
      if (next.kind === 'restart') {
        this.restartedBy = next.files;
        return code;
      }
      rerun = next;
    }
  }

  private async runOnce(session: WatchSession, rerun: Rerun): Promise<number> {
    if (this.runs++ > 0) this.io.stdout.write(`\n↻ ${describe(rerun, this.io.cwd)}\n`);
    const takes = this.affected.selection(rerun);
    const shard = session.plan.include;
    const plan = { ...session.plan, include: shard ? (c: TestCase) => shard(c) && takes(c) : takes };
    const running = { interrupt: new AbortController(), abort: new AbortController() };
    this.running = running;
    const started = Date.now();
    try {
      // An edit that changed no case (a save without changes, a new blank line) runs nothing.
      if (rerun.kind === 'changed' && !(await session.kernel.list(plan)).length) {
        this.io.stdout.write('No case is affected.\n');
        return this.lastCode;
      }
      const outcome = await session.kernel.run(plan, {
        interrupt: running.interrupt.signal,
        abort: running.abort.signal,
      });
      this.lastCode = outcome.summary.interrupted ? outcomeExitCode(outcome) : session.report(outcome);
    } catch (error) {
      // A suite file with a mistake in it: shown, and fixed by the next change. One read half-written
      // is not shown: its second write is a change the watch has seen, and the file is read again.
      if (!isAgentestError(error)) throw error;
      if (!changedSince(error, this.io.cwd, started))
        this.io.stderr.write(`${formatError(withCommandHelp(error, 'test'), this.io.env)}\n`);
      this.lastCode = exitCodeOf(error);
    } finally {
      this.running = undefined;
    }
    return this.lastCode;
  }

  /** The prompt, unless a change is waiting already (the next run starts at once). */
  private hint(): void {
    if (this.queued) return;
    const keys = readsKeys(process.stdin) ? KEY_HELP : 'press Ctrl-C to quit';
    this.io.stdout.write(`\nWatching for changes: ${keys}.\n`);
  }

  /** Case files rerun their affected cases in this set-up; anything else needs a new one. */
  private changed(files: ReadonlySet<string>): void {
    const onlyCases = [...files].every((file) => this.affected.isCaseFile(file));
    this.queue(onlyCases ? { kind: 'changed', files } : { kind: 'restart', files });
  }

  private command(command: WatchCommand): void {
    if (command === 'quit' || command === 'abort') return this.quit(command === 'abort');
    if (command === 'failed' && !this.affected.failedIds().length) {
      this.io.stdout.write('No failed case to run.\n');
      return;
    }
    this.queue({ kind: command });
  }

  /** The first quit interrupts a run in progress (its running cases finish); a second, or SIGTERM, aborts them. */
  private quit(hard: boolean): void {
    const running = this.running;
    if (running && this.quitting) running.abort.abort(new Error('aborted'));
    this.quitting = true;
    if (running) {
      running.interrupt.abort(new Error('interrupted'));
      if (hard) running.abort.abort(new Error('aborted'));
    }
    this.queue({ kind: 'quit' });
  }

  /** Keeps the strongest pending request: quit, then a new set-up, then all, then the changes so far. */
  private queue(next: Next): void {
    this.queued = merge(this.queued, next);
    this.wake?.();
  }

  private async next(): Promise<Next> {
    while (!this.queued) await new Promise<void>((wake) => (this.wake = wake));
    const next = this.queued;
    this.queued = undefined;
    this.wake = undefined;
    return next;
  }
}

const RANK: Record<Next['kind'], number> = { quit: 5, restart: 4, all: 3, changed: 2, failed: 1, again: 0 };

function merge(queued: Next | undefined, next: Next): Next {
  const files = (n: Next | undefined) => (n?.kind === 'changed' || n?.kind === 'restart' ? [...n.files] : []);
  if (
    (queued?.kind === 'changed' || queued?.kind === 'restart') &&
    (next.kind === 'changed' || next.kind === 'restart')
  )
    return {
      kind: queued.kind === 'restart' ? 'restart' : next.kind,
      files: new Set([...files(queued), ...files(next)]),
    };
  return !queued || RANK[next.kind] >= RANK[queued.kind] ? next : queued;
}

function describe(rerun: Rerun, cwd: string): string {
  if (rerun.kind === 'all') return 'Running all cases';
  if (rerun.kind === 'failed') return 'Running the failed cases';
  if (rerun.kind === 'again') return 'Running the last selection again';
  const names = [...rerun.files].map((file) => shown(file, cwd));
  return `${names.slice(0, 3).join(', ')}${names.length > 3 ? ` and ${names.length - 3} more` : ''} changed`;
}

function shown(file: string, cwd: string): string {
  const path = resolve(file);
  return path.startsWith(`${cwd}/`) ? path.slice(cwd.length + 1) : path;
}

/**
 * The folders to watch: the config's (the project, with its prompts, hooks and scripts; the working
 * directory without a config) and the input's, when the input is a file or folder.
 */
function watchedFolders(session: WatchSession, cwd: string): string[] {
  const input = resolve(cwd, session.plan.input.input);
  const mode = session.plan.options?.mode;
  return [session.config.dir, ...(mode === 'file' ? [dirname(input)] : mode === 'directory' ? [input] : [])];
}
