import {
  formatDuration,
  safeStringify,
  type AssertionResult,
  type CaseResult,
  type DeepReadonly,
  type Status,
} from '@agentest/kernel';

/** Small display helpers every report format needs, so that all reports speak the same way. */

export { formatDuration };

export const STATUS_ICONS: Readonly<Record<Status, string>> = {
  passed: '✅',
  failed: '❌',
  error: '💥',
  timeout: '⏱️',
  skipped: '⏭️',
};

export function statusIcon(status: Status): string {
  return STATUS_ICONS[status] ?? '❔';
}

/** `failed`, `error` and `timeout`: the statuses that fail a run. */
export function isFailure(status: Status): boolean {
  return status === 'failed' || status === 'error' || status === 'timeout';
}

/** Cuts `text` to at most `max` characters, marking the cut with `…` and never splitting a surrogate pair. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max - 1);
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return `${text.slice(0, end)}…`;
}

/** Collapses runs of whitespace (newlines included) into single spaces. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** A value as a reader wants to see it: strings as they are, everything else as indented JSON. */
export function displayValue(value: unknown): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return value;
  return safeStringify(value, 2) ?? String(value);
}

/**
 * A case input as text: a plain string stays as it is; messages become `role: text` lines, the
 * way a conversation reads.
 */
export function describeInput(input: unknown): string {
  const messages = Array.isArray(input) ? input : isMessage(input) ? [input] : undefined;
  if (!messages || !messages.every(isMessage)) return displayValue(input);
  return messages.map((m) => `${m.role}: ${contentText(m.content)}`).join('\n');
}

function isMessage(value: unknown): value is { role: string; content: unknown } {
  return typeof value === 'object' && value !== null && typeof (value as { role?: unknown }).role === 'string';
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content.map((part) => (typeof part?.text === 'string' ? part.text : `[${part?.type ?? 'part'}]`)).join(' ');
  return displayValue(content);
}

/** A 0–100 rate as `95.2%`. */
export function formatPercent(rate: number): string {
  return `${Number.isFinite(rate) ? rate.toFixed(1) : '0.0'}%`;
}

/** Metrics by their suffix: `_rate` is a 0–1 fraction, `_ms` a latency, anything else a plain number. */
export function formatMetric(name: string, value: number): string {
  if (name.endsWith('_rate')) return formatPercent(value * 100);
  if (name.endsWith('_ms')) return formatDuration(value);
  return String(Math.round(value * 10_000) / 10_000);
}

/** `id`, or `id (name)` when the case has a display name of its own. */
export function caseLabel(result: { id: string; name?: string }): string {
  return result.name && result.name !== result.id ? `${result.id} (${result.name})` : result.id;
}

/** The finer grade an agent gave itself (agentest-kit's PASS / PARTIAL / FAIL), when there is one. */
export function gradeOf(result: DeepReadonly<CaseResult>): string | undefined {
  for (const run of result.runs) {
    const grade = run.details?.grade;
    if (typeof grade === 'string' && grade) return grade;
  }
  return undefined;
}

export function failedAssertions(result: DeepReadonly<CaseResult>): readonly DeepReadonly<AssertionResult>[] {
  return result.assertions.filter((a) => !a.pass);
}

/** The reason to show first for a case that did not pass: its error, else its first failed assertion. */
export function failureMessage(result: DeepReadonly<CaseResult>): string {
  if (result.error) return result.error;
  const first = failedAssertions(result)[0];
  if (first) return first.message ?? `assertion "${first.type}" failed`;
  if (result.status === 'skipped') return result.skip_reason ?? (result.todo ? 'todo' : 'skipped');
  return result.status;
}

/** `run interrupted: 12 cases not run` for an interrupted run's summary, else undefined. */
export function interruptionNote(summary: { interrupted?: boolean; not_run?: number }): string | undefined {
  if (!summary.interrupted) return undefined;
  const count = summary.not_run ?? 0;
  return `run interrupted: ${count} case${count === 1 ? '' : 's'} not run`;
}

export function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
