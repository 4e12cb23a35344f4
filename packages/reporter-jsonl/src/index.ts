import { resolve } from 'node:path';
import { defineReporter, type AgentestPlugin, type DeepReadonly, type RunEvent } from '@agentest/kernel';
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
  const write = async (event: DeepReadonly<RunEvent>) => {
    opened ??= writer.open();
    await opened;
    await writer.write(JSON.stringify(withoutReplies(event)));
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

/** The full agent reply duplicates `output`, `tool_calls` and `usage`; the file keeps what reports read. */
export function withoutReplies(event: DeepReadonly<RunEvent>): DeepReadonly<RunEvent> {
  if (event.type === 'run_result' && event.execution.reply) {
    const { reply: _, ...execution } = event.execution;
    return { ...event, execution };
  }
  if (event.type === 'result' && event.runs.some((r) => r.reply)) {
    return { ...event, runs: event.runs.map(({ reply: _, ...run }) => run) };
  }
  return event;
}

export { LineWriter };
