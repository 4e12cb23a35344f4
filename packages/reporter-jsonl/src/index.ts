import { resolve } from 'node:path';
import {
  defineReporter,
  type AgentestPlugin,
  type CaseStartEvent,
  type DeepReadonly,
  type Execution,
  type ResultEvent,
  type RunEvent,
} from '@agentest/kernel';
import { safeStringify } from '@agentest/common';
import { fileReporterOptionsSchema, parseReporterOptions } from '@agentest/report';
import { LineWriter } from './line-writer.js';

/** The plugin's name, and the reporter's in messages. */
export const PLUGIN_NAME = 'agentest:jsonl';

export interface JsonlReporterOptions {
  /** Where the stream goes; relative paths resolve against `cwd`. Required. */
  output?: string;
  cwd?: string;
  verbose?: boolean;
}

/**
 * The event stream: the `RunEvent`s, one JSON object per line, written as they happen
 * (`start`, `case_start`, `run_result` with `--runs` > 1, `result`, `summary`).
 * A killed run leaves a valid prefix.
 */
export default function jsonlReporter(options: JsonlReporterOptions = {}): AgentestPlugin {
  const { output, cwd } = parseReporterOptions(PLUGIN_NAME, fileReporterOptionsSchema, options);
  const writer = new LineWriter(resolve(cwd ?? process.cwd(), output));
  let opened: Promise<void> | undefined;
  let ready = false;
  const serialise = eventSerialiser();
  // Synchronous once the file is open, unless the stream is full: see `LineWriter.write`.
  const write = (event: DeepReadonly<RunEvent>): void | Promise<void> => {
    const line = serialise(event);
    if (line === undefined) return;
    if (ready) return writer.write(line);
    opened ??= writer.open().then(() => void (ready = true));
    return opened.then(() => writer.write(line));
  };
  return defineReporter({
    name: PLUGIN_NAME,
    onStart: write,
    onCaseStart: write,
    onRunResult: write,
    onResult: write,
    onSummary: write,
    // A kernel that runs again (`--watch`) starts the file afresh: the next event opens it again.
    close: async () => {
      const closing = opened?.then(() => writer.close());
      opened = undefined;
      ready = false;
      await closing;
    },
  });
}

type Run = DeepReadonly<Execution>;

/** The fields a one-run result already carries from its run (and `reply`, which is never written). */
const CARRIED_BY_RESULT = new Set([
  'run',
  'status',
  'duration_ms',
  'output',
  'error',
  'assertions',
  'metrics',
  'reply',
]);

/**
 * One line per event, or `undefined` for an event the file leaves out. Full replies are never written.
 *
 * With one run per case (`runs_per_case` 1 on the `start` event) the `result` line is the whole
 * record: no `run_result` line is written, and the run's own fields that the result does not carry
 * (`tool_calls`, `usage`, `trace`, `retries`, `logs`, `details`, …) are written on the `result`
 * line instead of a `runs` array. Writing the run and then its result would put the output and
 * the assertions in the file twice, most of the writing cost of a fast suite.
 *
 * With several runs per case each run is its `run_result` line, and the `result` line after them
 * leaves out `runs` for the same reason.
 */
export function eventSerialiser(): (event: DeepReadonly<RunEvent>) => string | undefined {
  let lean = false;
  return (event) => {
    switch (event.type) {
      case 'start':
        lean = event.runs_per_case === 1;
        return safeStringify(event);
      case 'case_start':
        return caseStartLine(event) ?? safeStringify(event);
      case 'run_result':
        if (lean) return undefined;
        return safeStringify(event.execution.reply ? { ...event, execution: withoutReply(event.execution) } : event);
      case 'result': {
        const record =
          lean && event.runs.length === 1 ? withRunFields(event, event.runs[0]!) : { ...event, runs: undefined };
        return serialisedResults.get(event)?.(record) ?? safeStringify(record);
      }
      default:
        return safeStringify(event);
    }
  };
}

/**
 * Result lines serialised before the report is written (`agentest merge` holds each case's line as
 * its shard wrote it): for a result event, a function that answers, given the record the line is
 * written from, that line when it is exactly what serialising the record writes, else `undefined`.
 */
export const serialisedResults = new WeakMap<object, (record: Record<string, unknown>) => string | undefined>();

/** The keys of a `case_start` event as the kernel makes it, in its order, with and without a name. */
const CASE_START_KEYS = ['type', 'id', 'run', 'runs'];
const NAMED_CASE_START_KEYS = ['type', 'id', 'name', 'run', 'runs'];

/**
 * `JSON.stringify` of a `case_start` event as the kernel makes it, the same bytes written directly:
 * one such line per case, and walking the object cost several times the writing. An event with other
 * keys or values (a plugin's change) answers `undefined`, and is written the general way.
 */
function caseStartLine(event: DeepReadonly<CaseStartEvent>): string | undefined {
  const keys = event.name === undefined ? CASE_START_KEYS : NAMED_CASE_START_KEYS;
  let i = 0;
  for (const key in event) if (key !== keys[i++]) return undefined;
  const { id, name, run, runs } = event;
  if (i !== keys.length || typeof id !== 'string' || !Number.isSafeInteger(run) || !Number.isSafeInteger(runs))
    return undefined;
  if (name !== undefined && typeof name !== 'string') return undefined;
  const named = name === undefined ? '' : `,"name":${JSON.stringify(name)}`;
  return `{"type":"case_start","id":${JSON.stringify(id)}${named},"run":${run},"runs":${runs}}`;
}

/** The result without `runs`, plus its one run's fields that the result does not already have. */
function withRunFields(result: DeepReadonly<ResultEvent>, run: Run): Record<string, unknown> {
  const record: Record<string, unknown> = { ...result, runs: undefined };
  for (const key in run) {
    if (!CARRIED_BY_RESULT.has(key) && !(key in result)) record[key] = run[key as keyof Run];
  }
  return record;
}

function withoutReply(execution: Run): Run {
  const { reply: _, ...rest } = execution;
  return rest;
}

export { LineWriter };
