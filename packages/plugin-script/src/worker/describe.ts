import { inspect } from 'node:util';

/**
 * Text for values that cross the sandbox boundary. Values made inside a `vm` context belong to another
 * realm, so nothing here uses `instanceof`: errors are recognised by shape.
 */
export function isErrorLike(value: unknown): value is { name?: string; message: string; stack?: string } {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { message?: unknown }).message === 'string' &&
    (Object.prototype.toString.call(value) === '[object Error]' ||
      typeof (value as { stack?: unknown }).stack === 'string')
  );
}

/** The message of anything a script throws: Errors, strings, `undefined`, objects. */
export function thrownMessage(value: unknown): string {
  if (isErrorLike(value)) {
    const name = value.name && value.name !== 'Error' ? `${value.name}: ` : '';
    return `${name}${value.message || '(no message)'}`;
  }
  if (value === undefined) return 'thrown undefined';
  if (value === null) return 'thrown null';
  if (typeof value === 'string') return value === '' ? 'thrown empty string' : `thrown string: ${value}`;
  return `thrown value: ${formatValue(value)}`;
}

/** One log argument as text: strings as they are, everything else as `console.log` would show it. */
export function formatValue(value: unknown): string {
  if (typeof value === 'string') return value;
  return inspect(value, { depth: 4, breakLength: Infinity, compact: true });
}

/** A value in a message: strings quoted, so that `"1"` is told apart from `1`. */
export function quotedValue(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : formatValue(value);
}

export function formatArgs(args: readonly unknown[]): string {
  return args.map(formatValue).join(' ');
}

/**
 * A copy of a value that survives `postMessage` (assertion operands, return values). Functions and
 * symbols become their text form instead of failing the whole result.
 */
export function cloneable(value: unknown): unknown {
  try {
    return structuredClone(value);
  } catch {
    return formatValue(value);
  }
}
