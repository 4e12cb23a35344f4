import { resolve } from 'node:path';
import { defineReporter, type AgentestPlugin, type DeepReadonly, type Execution, type RunEvent } from '@agentest/kernel';
import { LineWriter } from './line-writer.js';

export interface JsonlReporterOptions {
  /** Where the stream goes; relative paths resolve against `cwd`. Required. */
  output?: string;
  cwd?: string;
  verbose?: boolean;
}

/**
 * The event stream: every `RunEvent`, one JSON object per line, written as it happens
 * (`start`, `case_start`, `run_result`, `result`, `summary`). A killed run leaves a valid prefix.
 */
export default function jsonlReporter(options: JsonlReporterOptions = {}): AgentestPlugin {
  if (!options.output) throw new TypeError('reporter-jsonl: the "output" option (a file path) is required');
  const writer = new LineWriter(resolve(options.cwd ?? process.cwd(), options.output));
  let opened: Promise<void> | undefined;
  let ready = false;
  const serialise = eventSerialiser();
  // Synchronous once the file is open, unless the stream is full: see `LineWriter.write`.
  const write = (event: DeepReadonly<RunEvent>): void | Promise<void> => {
    if (ready) return writer.write(serialise(event));
    opened ??= writer.open().then(() => void (ready = true));
    return opened.then(() => writer.write(serialise(event)));
  };
  return defineReporter({
    name: 'jsonl',
    onStart: write,
    onCaseStart: write,
    onRunResult: write,
    onResult: write,
    onSummary: write,
    close: async () => {
      if (opened) await opened.then(() => writer.close());
    },
  });
}

type Run = DeepReadonly<Execution>;

/**
 * One line per event. A `result` line leaves out `runs`: each run is already in the file as the
 * `run_result` line just before it, and repeating them (outputs and assertions included) would
 * double the file and most of the writing cost of a fast suite. Full replies are left out too.
 */
export function eventSerialiser(): (event: DeepReadonly<RunEvent>) => string {
  return (event) => {
    if (event.type === 'run_result') return JSON.stringify(event.execution.reply ? { ...event, execution: withoutReply(event.execution) } : event);
    if (event.type === 'result') return JSON.stringify({ ...event, runs: undefined });
    return JSON.stringify(event);
  };
}

function withoutReply(execution: Run): Run {
  const { reply: _, ...rest } = execution;
  return rest;
}

export { LineWriter };
