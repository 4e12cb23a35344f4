import type { HistoryCase, HistoryRun } from './history-record.js';

/** The keys `historyCase` gives an entry and each of its runs, in its order; optional ones may be absent. */
const CASE_KEYS = ['id', 'name', 'status', 'duration_ms', 'runs', 'message'] as const;
const RUN_KEYS = ['status', 'duration_ms', 'tokens', 'cost'] as const;

/**
 * `JSON.stringify(entry)`, the same bytes written directly: the record gets one entry per case, and
 * walking each small object cost more than the writing. An entry of another shape (other keys, keys
 * in another order, a value of another type) is written by `JSON.stringify` itself.
 */
export function historyCaseJson(entry: HistoryCase): string {
  return (hasShape(entry, CASE_KEYS) && directCase(entry)) || JSON.stringify(entry);
}

function directCase(entry: HistoryCase): string | undefined {
  const { id, name, status, duration_ms, runs, message } = entry;
  if (typeof id !== 'string' || typeof status !== 'string' || typeof duration_ms !== 'number') return undefined;
  if (!Array.isArray(runs) || 'toJSON' in runs) return undefined;
  if (!optional(name, 'string') || !optional(message, 'string')) return undefined;
  let text = `{"id":${JSON.stringify(id)}`;
  if (name !== undefined) text += `,"name":${JSON.stringify(name)}`;
  text += `,"status":${quoted(status)},"duration_ms":${number(duration_ms)},"runs":[`;
  for (let i = 0; i < runs.length; i++) {
    const run = directRun(runs[i]);
    if (run === undefined) return undefined;
    text += i ? `,${run}` : run;
  }
  return message === undefined ? `${text}]}` : `${text}],"message":${JSON.stringify(message)}}`;
}

function directRun(run: HistoryRun | undefined): string | undefined {
  if (!run || !hasShape(run, RUN_KEYS) || typeof run.status !== 'string') return undefined;
  const { status, duration_ms, tokens, cost } = run;
  if (!optional(duration_ms, 'number') || !optional(tokens, 'number') || !optional(cost, 'number')) return undefined;
  let text = `{"status":${quoted(status)}`;
  if (duration_ms !== undefined) text += `,"duration_ms":${number(duration_ms)}`;
  if (tokens !== undefined) text += `,"tokens":${number(tokens)}`;
  if (cost !== undefined) text += `,"cost":${number(cost)}`;
  return `${text}}`;
}

/** Whether the plain object's enumerable keys are some of `keys`, in that order, and it has no `toJSON`. */
function hasShape(value: object, keys: readonly string[]): boolean {
  if (Object.getPrototypeOf(value) !== Object.prototype || 'toJSON' in value) return false;
  let next = 0;
  for (const key in value) {
    while (next < keys.length && keys[next] !== key) next++;
    if (next === keys.length) return false;
    next++;
  }
  return true;
}

/** The statuses as JSON, made once: every entry and each of its runs has one. */
const STATUSES = new Map(['passed', 'failed', 'error', 'timeout', 'skipped'].map((s) => [s, JSON.stringify(s)]));

function quoted(status: string): string {
  return STATUSES.get(status) ?? JSON.stringify(status);
}

function optional(value: unknown, type: 'string' | 'number'): boolean {
  return value === undefined || typeof value === type;
}

/** A number as `JSON.stringify` writes it: `null` for one that is not finite. */
function number(value: number): string {
  return Number.isFinite(value) ? String(value) : 'null';
}
