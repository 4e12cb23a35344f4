export { default, PLUGIN_NAME } from './plugin.js';
export { defineAssertion, runAssertion, type AssertionDefinition, type AssertionPlugin } from './definition.js';
export { validateAssertion, builtinAssertion } from './validate.js';
export {
  builtinAssertions,
  contains,
  equals,
  jsonPath,
  notContains,
  regex,
  toolCalled,
  toolResult,
  type,
} from './assertions/index.js';
export { jsonType } from './assertions/type.js';
export { extractJson } from './json/extract-json.js';
export { stableStringify, searchableText, isPlainObject } from './json/stable-stringify.js';
export { deepEqual } from './json/deep-equal.js';
export { normalisePath, pathSyntaxError, queryPath, NO_MATCH } from './json/json-path.js';
export { compileRegex } from './regex.js';
export { matchesToolName, matchesPartially, toolCallsOf } from './tool-calls.js';
