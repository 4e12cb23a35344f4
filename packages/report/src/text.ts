import type { AssertionResult, CaseResult, DeepReadonly, ShardLabel, Status } from '@agentest/kernel';
import { safeStringify } from '@agentest/common';

/** Small display helpers every report format needs, so that all reports speak the same way. */

/** Formats milliseconds the way the terminal output does: `850µs`, `234ms`, `1.2s`, `2.5m`. */
export function formatDuration(ms: number): string {
  if (ms < 1) return `${Math.round(ms * 1000)}µs`;
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  return `${(ms / 60_000).toFixed(1)}m`;
}

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

/**
 * Cuts `text` to at most `max` characters (code points), the last of them the `ellipsis` (`…` for
 * documents, `...` for Yao's terminal layout); a surrogate pair is never split. Short text is
 * returned as it is, without a copy.
 */
export function truncate(text: string, max: number, ellipsis = '…'): string {
  if (text.length <= max) return text;
  const keep = Math.max(0, max - [...ellipsis].length);
  let count = 0;
  let cut = 0;
  for (let i = 0; i < text.length; i++) {
    if (count === keep) cut = i;
    if (++count > max) return text.slice(0, cut) + ellipsis;
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
  }
  return text;
}

/** Whitespace that `oneLine` would change: a run, a non-space character, or any at either end. */
const UNTIDY_SPACE = /[^\S ]| \s|^\s|\s$/;

/** Collapses runs of whitespace (newlines included) into single spaces and trims; tidy text is returned as it is. */
export function oneLine(text: string): string {
  return UNTIDY_SPACE.test(text) ? text.replace(/\s+/g, ' ').trim() : text;
}

/** A value as a reader wants to see it: strings as they are, everything else as indented JSON. */
export function displayValue(value: unknown): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return value;
  return safeStringify(value, 2) ?? String(value);
}

/** Strings as they are, anything else as compact JSON on one line. */
export function compactValue(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  return safeStringify(value) ?? String(value);
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

/** `id`, or `id (name)` when the case has a display name of its own. */
export function caseLabel(result: { id: string; name?: string }): string {
  return result.name && result.name !== result.id ? `${result.id} (${result.name})` : result.id;
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

/**
 * `2/4 (chosen by GitLab CI_NODE_INDEX/CI_NODE_TOTAL)` for a run that is one shard of a suite, with how a
 * balanced split packed the cases after it; else undefined.
 */
export function shardNote(start: { shard?: DeepReadonly<ShardLabel> }): string | undefined {
  const shard = start.shard;
  if (!shard) return undefined;
  return `${shard.index}/${shard.total} (chosen by ${shard.source})${shard.split ? `, ${shard.split}` : ''}`;
}

export function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
