import type { AssertionDefinition } from '../definition.js';
import { contains } from './contains.js';
import { equals } from './equals.js';
import { jsonPath } from './json-path.js';
import { notContains } from './not-contains.js';
import { regex } from './regex.js';
import { toolCalled } from './tool-called.js';
import { toolResult } from './tool-result.js';
import { type } from './type.js';

/** Every built-in assertion type; adding one is a new file here and one line in this list. */
export const builtinAssertions: readonly AssertionDefinition[] = [
  equals,
  contains,
  notContains,
  regex,
  jsonPath,
  type,
  toolCalled,
  toolResult,
];

export { contains, equals, jsonPath, notContains, regex, toolCalled, toolResult, type };
