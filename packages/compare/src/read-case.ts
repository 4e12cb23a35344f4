import type { Status } from '@agentest/kernel';
import type { CaseRecord, RunRecord } from './comparison-input.js';

/** A report's record as parsed JSON: reading stays defensive, since the file may be old or hand-edited. */
export type Loose = Record<string, unknown>;

const STATUSES = new Set<Status>(['passed', 'failed', 'error', 'timeout', 'skipped']);
const MAX_MESSAGES = 5;
const MAX_MESSAGE_LENGTH = 500;

export function isObject(value: unknown): value is Loose {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function statusOf(value: unknown): Status | undefined {
  return STATUSES.has(value as Status) ? (value as Status) : undefined;
}

export function text(value: unknown): string | undefined {
  return typeof value === 'string' && value ? value : undefined;
}

function finite(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** One run from an execution, a `run_details` entry or a one-run `result` line. */
export function runRecord(record: Loose): RunRecord | undefined {
  const status = statusOf(record.status);
  if (!status) return undefined;
  const usage = isObject(record.usage) ? record.usage : {};
  const metrics = isObject(record.metrics) ? record.metrics : {};
  const parts = [finite(usage.prompt_tokens), finite(usage.completion_tokens)].filter((n) => n !== undefined);
  const tokens = finite(usage.total_tokens) ?? (parts.length ? parts.reduce((a, b) => a + b, 0) : undefined);
  const cost = finite(metrics.cost_usd) ?? finite(metrics.cost);
  const durationMs = finite(record.duration_ms);
  return {
    status,
    ...(durationMs !== undefined ? { durationMs } : {}),
    ...(tokens !== undefined ? { tokens } : {}),
    ...(cost !== undefined ? { cost } : {}),
  };
}

/** Why a case failed, in the words of its error and its failed assertions. */
export function failureMessages(records: readonly Loose[]): string[] {
  const messages = new Set<string>();
  for (const record of records) {
    const error = text(record.error);
    if (error) messages.add(error);
    const assertions = Array.isArray(record.assertions)
      ? record.assertions
      : isObject(record.assertion)
        ? [record.assertion]
        : [];
    for (const assertion of assertions.filter(isObject)) {
      if (assertion.pass === true) continue;
      messages.add(text(assertion.message) ?? `assertion "${text(assertion.type) ?? '?'}" failed`);
    }
  }
  return [...messages]
    .slice(0, MAX_MESSAGES)
    .map((m) => (m.length > MAX_MESSAGE_LENGTH ? `${m.slice(0, MAX_MESSAGE_LENGTH - 1)}…` : m));
}

/** A case from its result record and its runs (the result itself stands for a lone run). */
export function caseRecord(id: string, result: Loose, runs: readonly Loose[]): CaseRecord {
  const status = statusOf(result.status)!;
  const recorded = runs.map(runRecord).filter((r): r is RunRecord => r !== undefined);
  const lone = runRecord(result);
  const name = text(result.name);
  return {
    id,
    ...(name && name !== id ? { name } : {}),
    status,
    runs: recorded.length ? recorded : lone ? [lone] : [],
    messages: status === 'passed' ? [] : failureMessages([result, ...runs]),
  };
}
