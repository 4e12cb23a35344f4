import * as z from 'zod';
import { lazy } from '@agentest/common';

/**
 * The fields of one JSONL case and their types, as the Yao design lists them. Unknown keys are
 * allowed and ignored (as Go's decoder does); `null` counts as absent for optional fields. `input`,
 * `expected` and `assert` take many shapes and are checked by their own normalisers.
 *
 * Each error text is the phrase "must be …" completes in a message. Built on first use: a valid line
 * passes the hand-written check below, so the schemas run only to explain a wrong one.
 */
const optionalString = () => z.string({ error: 'a string' }).nullish();
const optionalObject = () => z.record(z.string(), z.unknown(), { error: 'an object' }).nullish();
const optionalBoolean = () => z.boolean({ error: 'true or false (without quotes)' }).nullish();

export const caseSchema = lazy(() =>
  z.looseObject({
    id: z.string({ error: 'a string' }).min(1, { error: 'a non-empty string' }),
    name: optionalString(),
    user: optionalString(),
    team: optionalString(),
    metadata: optionalObject(),
    options: optionalObject(),
    skip: optionalBoolean(),
    todo: optionalBoolean(),
    timeout: z.string({ error: 'a duration string such as "30s" or "2m30s"' }).nullish(),
    tags: z
      .array(z.string({ error: 'a non-empty string' }).trim().min(1, { error: 'a non-empty string' }), {
        error: 'an array of strings',
      })
      .nullish(),
  }),
);

export const assertionSchema = lazy(() =>
  z.looseObject({
    type: optionalString(),
    negate: optionalBoolean(),
    message: optionalString(),
    path: optionalString(),
    script: optionalString(),
  }),
);

/** What to do about a wrong field, by field name; the default says to correct it. */
export const FIELD_FIXES: Record<string, string> = {
  id: 'give every case a unique string id, e.g. "T001"',
  metadata: 'use an object such as {"tag": "smoke"}',
  options: 'use an object such as {"connector": "openai.gpt-4o"}',
  skip: 'write true or false',
  todo: 'write true or false',
  timeout: 'use a Go duration such as "30s", "2m" or "1m30s"',
  tags: 'use an array of tag names such as ["smoke", "billing"]',
  assert: 'see "Assertions" in the docs for the fields of an assertion',
};

const STRING_FIELDS = new Set(['name', 'user', 'team', 'timeout']);
const OBJECT_FIELDS = new Set(['metadata', 'options']);
const BOOLEAN_FIELDS = new Set(['skip', 'todo']);

/**
 * A hand-written check that accepts only what `CaseSchema` accepts, for the common lines of a large
 * file: it costs a property loop where zod costs an allocation-heavy parse. When it says no, the
 * schema runs and explains why.
 */
export function isWellTypedCase(value: Record<string, unknown>): boolean {
  if (typeof value.id !== 'string' || value.id === '') return false;
  for (const key in value) {
    const v = value[key];
    if (v === null || v === undefined) continue;
    if (STRING_FIELDS.has(key)) {
      if (typeof v !== 'string') return false;
    } else if (OBJECT_FIELDS.has(key)) {
      if (typeof v !== 'object' || Array.isArray(v)) return false;
    } else if (BOOLEAN_FIELDS.has(key)) {
      if (typeof v !== 'boolean') return false;
    } else if (key === 'tags' && !isTagList(v)) return false;
  }
  return true;
}

function isTagList(value: unknown): boolean {
  return Array.isArray(value) && value.every((tag) => typeof tag === 'string' && tag.trim() !== '');
}

/** The same promise for one assertion object. */
const ASSERTION_STRING_FIELDS = ['type', 'message', 'path', 'script'];

export function isWellTypedAssertion(value: Record<string, unknown>): boolean {
  for (const key of ASSERTION_STRING_FIELDS) {
    const v = value[key];
    if (v !== null && v !== undefined && typeof v !== 'string') return false;
  }
  return value.negate === null || value.negate === undefined || typeof value.negate === 'boolean';
}
