import type { Assertion } from '@agentest/kernel';
import { carryExactText } from '@agentest/common';
import { assertionSchema, FIELD_FIXES, isWellTypedAssertion } from './case-schema.js';
import { typeName } from './input-error.js';
import { explainSchemaError, type Fail } from './schema-error.js';

/**
 * `assert` as a list: an object is one assertion, a string is `{type: <string>}`, an array holds
 * either. A missing or empty `type` means `equals`, as in Yao.
 */
export function parseAssertions(value: unknown, fail: Fail, checked: boolean, label = 'assert'): Assertion[] {
  const items = Array.isArray(value) ? value : [value];
  return items.map((item, i) => {
    if (checked) return typeof item === 'string' ? { type: item } : withType(item as Record<string, unknown>);
    if (typeof item === 'string') {
      if (!item)
        fail(`field "${labelOf(value, i, label)}" is an empty string`, 'name an assertion type, e.g. "contains"');
      return { type: item };
    }
    if (item === null || typeof item !== 'object' || Array.isArray(item)) {
      fail(
        `field "${labelOf(value, i, label)}" must be an assertion object or a type name, got ${typeName(item)}`,
        FIELD_FIXES.assert!,
      );
    }
    const assertion = item as Record<string, unknown>;
    if (!isWellTypedAssertion(assertion))
      explainSchemaError(assertionSchema().safeParse(assertion), assertion, fail, `${labelOf(value, i, label)}.`);
    return withType(assertion);
  });
}

/** The object is the parser's own, fresh from JSON.parse: only a missing type needs a copy. */
function withType(assertion: Record<string, unknown>): Assertion {
  if (typeof assertion.type === 'string' && assertion.type) return assertion as Assertion;
  const copy = { ...assertion, type: 'equals' } as Assertion;
  carryExactText(assertion, 'value', copy, 'value');
  return copy;
}

/** `expected` without `assert`: an `equals` assertion of it (with the source text of a big integer). */
export function equalsAssertion(line: Record<string, unknown>): Assertion {
  const assertion: Assertion = { type: 'equals', value: line.expected };
  carryExactText(line, 'expected', assertion, 'value');
  return assertion;
}

/** How messages name an assertion: `assert[i]` in a list, `assert` alone. Built only for a message. */
function labelOf(value: unknown, i: number, label: string): string {
  return Array.isArray(value) ? `${label}[${i}]` : label;
}
