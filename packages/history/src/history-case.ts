import type { CaseResult, Execution } from '@agentest/kernel';
import type { HistoryCase, HistoryRun } from './history-record.js';

const MAX_MESSAGE_LENGTH = 300;

/** A case's result as history keeps it: status, duration, each run's outcome and cost, the first reason it failed. */
export function historyCase(result: CaseResult): HistoryCase {
  const entry = { id: result.id } as HistoryCase;
  if (result.name && result.name !== result.id) entry.name = result.name;
  entry.status = result.status;
  entry.duration_ms = result.duration_ms;
  entry.runs = result.runs.length ? result.runs.map(historyRun) : [{ status: result.status }];
  const message = result.status === 'passed' || result.status === 'skipped' ? undefined : reasonOf(result);
  if (message) entry.message = message;
  return entry;
}

function historyRun(run: Execution): HistoryRun {
  const usage = run.usage;
  const tokens = usage?.total_tokens ?? sum(usage?.prompt_tokens, usage?.completion_tokens);
  const cost = run.metrics.cost_usd ?? run.metrics.cost;
  const entry: HistoryRun = { status: run.status, duration_ms: run.duration_ms };
  if (finite(tokens)) entry.tokens = tokens;
  if (finite(cost)) entry.cost = cost;
  return entry;
}

function reasonOf(result: CaseResult): string | undefined {
  const text = result.error ?? result.assertions.find((a) => !a.pass)?.message;
  if (!text) return undefined;
  return text.length > MAX_MESSAGE_LENGTH ? `${text.slice(0, MAX_MESSAGE_LENGTH - 1)}…` : text;
}

function sum(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined && b === undefined ? undefined : (a ?? 0) + (b ?? 0);
}

function finite(value: number | undefined): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}
