import { loadDebug } from './debug-log.js';

/**
 * The secret registry: connector keys and credential headers are registered when a connector is
 * built, and every event the kernel hands to reporters, every printed error and every debug line is
 * passed through `redactSecrets` first. Verdicts are computed before that, on the raw output.
 *
 * Process-wide on purpose: a secret is a secret for every output of the process, whichever kernel
 * or plugin built the connector. With nothing registered, redaction is a length check.
 */
const secrets: string[] = [];

/** Shorter values would mask ordinary words in outputs; keys and tokens are far longer. */
export const MIN_SECRET_LENGTH = 8;
/** Deeper values are replaced, not walked (the loader refuses such nesting anyway). */
const MAX_DEPTH = 1_000;
const REDACTED = '[redacted]';

/** Adds a value to redact from every report, log and printed error of this process. */
export function registerSecret(value: string | undefined | null): void {
  if (typeof value !== 'string' || value.length < MIN_SECRET_LENGTH || secrets.includes(value)) return;
  // Longest first, so a key that contains another registered value is replaced whole.
  secrets.push(value);
  secrets.sort((a, b) => b.length - a.length);
  if (secrets.length === 1) redactDebugOutput();
}

/** True when at least one secret is registered (callers can skip work otherwise). */
export function hasSecrets(): boolean {
  return secrets.length > 0;
}

/** The first registered secret that occurs in `text`, if any (the value itself: never print it). */
export function findSecret(text: string): string | undefined {
  for (const secret of secrets) if (text.includes(secret)) return secret;
  return undefined;
}

/** The text with every registered secret replaced by `[redacted]`. */
export function redactText(text: string): string {
  let out = text;
  for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  return out;
}

/**
 * A copy of `value` without any registered secret in its strings. Copy-on-write: objects that hold
 * no secret are returned as they are, so an event without one costs a walk and no allocation.
 */
export function redactSecrets<T>(value: T): T {
  return secrets.length === 0 ? value : (redactValue(value, 0) as T);
}

function redactValue(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return redactText(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return '[nested too deep to show]';
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const next = redactValue(value[i], depth + 1);
      if (next !== value[i]) (copy ??= value.slice())[i] = next;
    }
    return copy ?? value;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value instanceof Error ? redactError(value) : value;
  let copy: Record<string, unknown> | undefined;
  // for…in allocates no key array; plain objects inherit no enumerable keys.
  for (const key in value) {
    const item = (value as Record<string, unknown>)[key];
    const next = redactValue(item, depth + 1);
    if (next !== item) (copy ??= { ...(value as Record<string, unknown>) })[key] = next;
  }
  return copy ?? value;
}

function redactError(error: Error): Error {
  const message = redactText(error.message);
  const stack = error.stack === undefined ? undefined : redactText(error.stack);
  if (message === error.message && stack === error.stack) return error;
  const copy = new Error(message);
  copy.name = error.name;
  copy.stack = stack;
  return copy;
}

/** `DEBUG=agentest:*` lines (request logs, hook errors, server bodies) are redacted like reports. */
function redactDebugOutput(): void {
  const createDebug = loadDebug();
  const write = createDebug.log;
  createDebug.log = function (this: unknown, ...args: unknown[]) {
    return (write as (...a: unknown[]) => unknown).apply(
      this,
      args.map((arg) => redactSecrets(arg)),
    );
  };
}
