import { AgentestError } from '@agentest/kernel/errors';

const UNIT_MS: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
const GO_DURATION = /^(?:(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h))+$/;
const PART = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/g;

/**
 * Parses a Go-style duration (`"30s"`, `"2m30s"`, `"1.5h"`, `"500ms"`), or a number of milliseconds
 * from code. A string needs a unit, as in Go: `"30"` is an error suggesting `"30s"`, never 30 ms.
 * An invalid value is an error naming `where`, never a silent default.
 */
export function parseDuration(value: string | number, where: string): number {
  if (typeof value === 'number') {
    if (Number.isFinite(value) && value > 0) return value;
  } else {
    const text = value.trim();
    const unitless = withoutUnit(text);
    if (unitless)
      throw new AgentestError('INPUT_INVALID', `${where}: duration ${JSON.stringify(value)} has no unit; ${unitless}`, {
        where,
      });
    if (GO_DURATION.test(text)) {
      let total = 0;
      for (const [, amount, unit] of text.matchAll(PART)) total += Number(amount) * UNIT_MS[unit!]!;
      if (total > 0) return total;
    }
  }
  throw new AgentestError(
    'INPUT_INVALID',
    `${where}: invalid duration ${JSON.stringify(value)}; use a form like "30s", "2m30s" or "500ms"`,
    { where },
  );
}

/**
 * For a duration written as a bare number (`30`, `"30"`), what to write instead; `undefined` when it
 * is not a bare number. Shared by every place a user writes a duration.
 */
export function withoutUnit(value: string | number): string | undefined {
  const text = String(value).trim();
  if (!/^\d+(?:\.\d+)?$/.test(text)) return undefined;
  return `write "${text}s" for ${text} seconds (or "${text}ms" if milliseconds were meant)`;
}

/** Go's duration format, as Yao prints timeouts: `5m0s`, `30s`, `1.5s`, `250ms`. */
export function goDuration(ms: number): string {
  if (ms < 1000) return `${ms}ms`;
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = (ms % 60_000) / 1000;
  if (h) return `${h}h${m}m${s}s`;
  if (m) return `${m}m${s}s`;
  return `${s}s`;
}
