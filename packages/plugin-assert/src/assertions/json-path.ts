import { defineAssertion, malformed, preview, previewText } from '../definition.js';
import { deepEqual } from '../json/deep-equal.js';
import { extractJson } from '../json/extract-json.js';
import { NO_MATCH, pathSyntaxError, queryPath } from '../json/json-path.js';
import { jsonType } from './type.js';

/**
 * The value at `path` equals `value` (structurally). Paths are JSONPath (`$.a.b`, `a.b`, `.a.b`,
 * `a[0].b`, `$['key.with.dots']`, wildcards); filter expressions are disabled because nothing in a
 * test needs code running inside a path. Text replies go through the same JSON extraction as
 * `equals`. If `value` is an array and the selected value is not, the assertion passes when the value
 * equals any element (Yao's IN semantics). Without a `value`, the path must select something.
 */
export const jsonPath = defineAssertion({
  type: 'json_path',
  description: 'the value at JSONPath `path` equals `value` (or any element of an array `value`)',
  check(assertion, { output }) {
    const path = assertion.path;
    if (typeof path !== 'string') return malformed(assertion, 'missing "path": give a JSONPath such as "$.field" or "items[0].name"');
    const syntax = pathSyntaxError(path);
    if (syntax) return malformed(assertion, `path '${path}': ${syntax}`);

    const document = typeof output === 'string' ? extractJson(output) : output;
    if (typeof output === 'string' && document === undefined) {
      return { pass: false, message: `output is not valid JSON: ${previewText(output)}`, actual: output };
    }
    if (document === null || typeof document !== 'object') {
      return { pass: false, message: `output is not a JSON object or array, got: ${jsonType(output)} = ${preview(output)}`, actual: output };
    }

    let selected: unknown;
    try {
      selected = queryPath(document, path);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      const hint = /prevented/.test(reason) ? 'filter expressions [?(...)] are disabled; select by index or key instead' : reason;
      return malformed(assertion, `path '${path}': ${hint}`);
    }
    const expected = assertion.value;
    if (expected === undefined) {
      return selected === NO_MATCH
        ? { pass: false, message: `path '${path}': expected a value, got nothing (no match)` }
        : { pass: true, message: `path '${path}' exists`, actual: selected };
    }
    const actual = selected === NO_MATCH ? undefined : selected;
    const got = selected === NO_MATCH ? 'nothing (no match)' : preview(actual);
    if (selected !== NO_MATCH && deepEqual(actual, expected)) {
      return { pass: true, message: `path '${path}' equals expected value`, expected, actual };
    }
    if (selected !== NO_MATCH && Array.isArray(expected) && !Array.isArray(actual) && expected.some((item) => deepEqual(actual, item))) {
      return { pass: true, message: `path '${path}' equals one of expected values`, expected, actual };
    }
    return { pass: false, message: `path '${path}': expected ${preview(expected)}, got ${got}`, expected, actual };
  },
});
