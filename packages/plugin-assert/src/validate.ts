import type { Assertion } from '@agentest/kernel';
import { builtinAssertions } from './assertions/index.js';
import type { AssertionDefinition } from './definition.js';

const BY_TYPE = new Map<string, AssertionDefinition>(
  builtinAssertions.map((definition) => [definition.type, definition]),
);
BY_TYPE.set('', BY_TYPE.get('equals')!);

/** The built-in definition of a type (`""` is `equals`), if there is one. */
export function builtinAssertion(type: string): AssertionDefinition | undefined {
  return BY_TYPE.get(type);
}

/**
 * What is wrong with how a built-in assertion is written, as the message its run would fail with,
 * or `undefined` when it is well formed or its type is not built in (unknown types are the kernel's
 * `NO_ASSERTION`). For loaders and dry runs that want to report a bad regex or path before any
 * agent is called.
 */
export function validateAssertion(assertion: Assertion): string | undefined {
  return BY_TYPE.get(assertion.type)?.validate?.(assertion);
}
