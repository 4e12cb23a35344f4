import type * as z from 'zod';
import { FIELD_FIXES } from './case-schema.js';
import { typeName } from './input-error.js';

/** Reports a problem with a line as `<file>:<line>: <problem> — <fix>`; never returns. */
export type Fail = (problem: string, fix: string) => never;

/** Turns the first schema issue into `field "x.y" must be <type>, got <value>`. */
export function explainSchemaError(
  result: z.ZodSafeParseResult<unknown>,
  value: Record<string, unknown>,
  fail: Fail,
  prefix = '',
): void {
  if (result.success) return;
  const issue = result.error.issues[0]!;
  const path = issue.path.map(String);
  const field = prefix + path.join('.');
  const got = path.reduce<unknown>((v, key) => (v as Record<string, unknown> | undefined)?.[key], value);
  const fix = FIELD_FIXES[path[0] ?? ''] ?? (prefix ? FIELD_FIXES.assert! : 'correct the field, or remove it');
  fail(`field "${field}" must be ${issue.message}, got ${describe(got)}`, fix);
}

export function describe(value: unknown): string {
  if (value === null || typeof value === 'object') return typeName(value);
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${typeName(value)} ${text.slice(0, 37)}...` : text;
}
