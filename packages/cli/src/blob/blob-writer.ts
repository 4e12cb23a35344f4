import {
  AgentestError,
  defineReporter,
  type AgentestPlugin,
  type DeepReadonly,
  type Execution,
  type ResultEvent,
  type RunEvent,
  type StartEvent,
} from '@agentest/kernel';
import { safeStringify } from '@agentest/common';
import { LineWriter } from '@agentest/reporter-jsonl';
import type { BlobHeader, ResumeMark } from './blob-header.js';
import { leanRecord } from './lean-result.js';

export const BLOB_PLUGIN = 'agentest:blob';

/** Runs before every other report tap, so a resume of the wrong suite stops before anything is written. */
const BEFORE_EVERYTHING = -1000;

export interface BlobWriterOptions {
  path: string;
  /** The header a new blob starts with, made at the start event (the suite is counted by then). */
  header(start: DeepReadonly<StartEvent>): BlobHeader;
  /** With `--resume`: checks the suite is the blob's (throws when not) and says which cases run again. */
  resume?(): ResumeMark;
  /** Cases whose results the blob holds already (a resume replays them): not written again. */
  recorded?: ReadonlySet<string>;
}

/**
 * Writes the shard's blob: its header (or, resuming, a `resume` line appended to the blob), then the
 * run's events as they happen. Each `result` line carries the case's every run (without the full
 * reply) and leaves out what merge recomputes from them, so `agentest merge` computes every statistic
 * from the runs; with one run per case it is the JSONL report's line plus the run's keys (see
 * lean-result.ts). Lines are written as each case ends, so a shard killed mid-run leaves a blob whose
 * finished cases `--resume` keeps.
 */
export function blobWriter(options: BlobWriterOptions): AgentestPlugin {
  const writer = new LineWriter(options.path);
  let first: string | undefined;
  let oneRunEach = false;
  let opened: Promise<void> | undefined;
  const write = (line: string | undefined): void | Promise<void> => {
    if (line === undefined) return;
    opened ??= writer.open(options.resume ? 'a' : 'w');
    return opened.then(() => writer.write(line));
  };
  const reporter = defineReporter({
    name: BLOB_PLUGIN,
    onStart: async (event) => {
      oneRunEach = event.runs_per_case === 1;
      await write(first);
      await write(safeStringify(event));
    },
    onResult: (event) =>
      options.recorded?.has(event.id)
        ? undefined
        : write(safeStringify((oneRunEach && leanRecord(event)) || blobResult(event))),
    onSummary: (event) => write(safeStringify(event)),
    close: async () => {
      if (opened) await opened.then(() => writer.close());
    },
  });
  return {
    name: BLOB_PLUGIN,
    enforce: 'pre',
    apply(kernel) {
      // The first line is decided before any reporter hears the start: a resume that does not fit
      // its blob throws here, which stops the run before a case runs (exit 2).
      kernel.hooks.report.tap({ name: BLOB_PLUGIN, stage: BEFORE_EVERYTHING }, (event: RunEvent) => {
        if (event.type !== 'start') return;
        try {
          first = safeStringify(options.resume ? options.resume() : options.header(event));
        } catch (error) {
          if (error instanceof AgentestError) throw error;
          throw new AgentestError('INTERNAL', `the blob header could not be made: ${String(error)}`, { cause: error });
        }
      });
      reporter.apply(kernel);
    },
  };
}

/**
 * The fields of a result that `merge` recomputes from its runs (the representative run's output, error
 * and assertions, the averaged metrics, the stability and variance blocks): left out of the blob, where
 * with one run per case they would repeat the run's own and double what every shard writes and merge reads.
 */
const RECOMPUTED = new Set(['output', 'error', 'assertions', 'metrics', 'stability', 'variance']);

/** The result line: the case, its status and every run (without the full reply, never part of a report). */
function blobResult(event: DeepReadonly<ResultEvent>): Record<string, unknown> {
  const line: Record<string, unknown> = {};
  for (const key in event) if (!RECOMPUTED.has(key)) line[key] = event[key as keyof typeof event];
  if (event.runs.some((run) => 'reply' in run)) line.runs = event.runs.map(withoutReply);
  return line;
}

function withoutReply(run: DeepReadonly<Execution>): DeepReadonly<Execution> {
  const { reply: _reply, ...rest } = run;
  return rest;
}
