import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { ComparisonInput } from './comparison-input.js';
import { caseRecord, isObject, statusOf, text, type Loose } from './read-case.js';
import { unreadable } from './report-errors.js';

/**
 * Reads the `.jsonl` event stream line by line: `start` names the suite, `run_result` lines hold
 * each run when there were several, `result` closes a case, `summary` marks the run complete. A
 * last line cut short (a run killed mid-write) is left out; a bad line anywhere else is an error.
 */
export async function readJsonl(file: string, shown: string): Promise<ComparisonInput> {
  const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  const runs = new Map<string, Loose[]>();
  const seenAt = new Map<string, number>();
  let input: ComparisonInput | undefined;
  let broken: { line: number; reason: string } | undefined;
  let lineNumber = 0;
  for await (const line of lines) {
    lineNumber++;
    if (!line.trim()) continue;
    if (broken) throw unreadable(shown, `line ${broken.line} is not a JSON object (${broken.reason})`, broken.line);
    const event = parseLine(line);
    if (typeof event === 'string') {
      broken = { line: lineNumber, reason: event };
      continue;
    }
    if (!input) {
      if (event.type !== 'start')
        throw unreadable(
          shown,
          `line ${lineNumber} is a "${String(event.type)}" event, but an agentest event stream starts with a "start" event`,
          lineNumber,
        );
      input = inputFromStart(event, shown);
      continue;
    }
    if (event.type === 'run_result' && typeof event.id === 'string' && isObject(event.execution)) {
      runs.set(event.id, [...(runs.get(event.id) ?? []), event.execution]);
    } else if (event.type === 'result') {
      addResult(input, event, runs, { shown, lineNumber, seenAt });
    } else if (event.type === 'summary') {
      input.complete = event.interrupted !== true && event.halted === undefined;
    }
  }
  if (!input)
    throw unreadable(
      shown,
      broken ? `line ${broken.line} is not a JSON object (${broken.reason})` : 'the file is empty',
      broken?.line,
    );
  return input;
}

function parseLine(line: string): Loose | string {
  try {
    const value: unknown = JSON.parse(line);
    return isObject(value) ? value : 'not an object';
  } catch (error) {
    return (error as Error).message;
  }
}

/** The comparison input a `start` event opens; its cases are added as their `result` events arrive. */
export function inputFromStart(start: Loose, shown: string): ComparisonInput {
  const agent = text(start.agent_id);
  const connector = text(start.connector);
  const startedAt = text(start.timestamp);
  return {
    file: shown,
    format: 'jsonl',
    suite: text(start.suite) ?? '',
    kind: text(start.kind) ?? 'agent',
    ...(agent ? { agent } : {}),
    ...(connector ? { connector } : {}),
    runsPerCase: typeof start.runs_per_case === 'number' ? start.runs_per_case : 1,
    ...(startedAt ? { startedAt } : {}),
    complete: false,
    cases: new Map(),
  };
}

interface Where {
  shown: string;
  lineNumber: number;
  seenAt: Map<string, number>;
}

function addResult(input: ComparisonInput, event: Loose, runs: Map<string, Loose[]>, where: Where): void {
  const id = text(event.id);
  if (!id || !statusOf(event.status))
    throw unreadable(
      where.shown,
      `line ${where.lineNumber}: a "result" event needs an "id" and a "status" (passed, failed, error, timeout or skipped)`,
      where.lineNumber,
    );
  const earlier = where.seenAt.get(id);
  if (earlier !== undefined)
    throw unreadable(
      where.shown,
      `case "${id}" has two "result" lines (${earlier} and ${where.lineNumber}); a report holds each case once`,
      where.lineNumber,
    );
  where.seenAt.set(id, where.lineNumber);
  const ownRuns = Array.isArray(event.runs) ? event.runs.filter(isObject) : [];
  input.cases.set(id, caseRecord(id, event, ownRuns.length ? ownRuns : (runs.get(id) ?? [])));
  runs.delete(id);
}
