import { defineAssertion, invalid, preview, previewText } from '../definition.js';
import { deepEqual } from '../json/deep-equal.js';
import { extractJson } from '../json/extract-json.js';
import { exactText } from '@agentest/common';
import {
  FILTERS_DISABLED,
  NO_MATCH,
  isBigInteger,
  pathSyntaxError,
  queryPath,
  selectedText,
  selectsNothing,
} from '../json/json-path.js';
import { jsonType } from './type.js';

/**
 * The value at `path` equals `value` (structurally). Paths are JSONPath (`$.a.b`, `a.b`, `.a.b`,
 * `a[0].b`, `$['key.with.dots']`, wildcards); filter expressions are disabled because nothing in a
 * test needs code running inside a path. Text replies go through the same JSON extraction as
 * `equals`. If `value` is an array and the selected value is not, the assertion passes when the value
 * equals any element (Yao's IN semantics). Without a `value`, the path must select at least one node.
 * An output that is not JSON, or a path that cannot be evaluated on it, is no verdict but an error.
 */
export const jsonPath = defineAssertion({
  type: 'json_path',
  description: 'the value at JSONPath `path` equals `value` (or any element of an array `value`)',
  validate(assertion) {
    const path = assertion.path;
    if (typeof path !== 'string')
      return invalid(assertion, 'missing "path": give a JSONPath such as "$.field" or "items[0].name"');
    const syntax = pathSyntaxError(path);
    return syntax ? invalid(assertion, `path '${path}': ${syntax}`) : undefined;
  },
  check(assertion, { output }) {
    const path = assertion.path as string;
    const document = typeof output === 'string' ? extractJson(output) : output;
    // An output the path cannot be read in is no verdict: negated or not, the run is an error.
    if (typeof output === 'string' && document === undefined) {
      return { pass: false, error: `output is not valid JSON: ${previewText(output)}`, actual: output };
    }
    if (document === null || typeof document !== 'object') {
      return {
        pass: false,
        error: `output is not a JSON object or array, got: ${jsonType(output)} = ${preview(output)}`,
        actual: output,
      };
    }

    let selected: unknown;
    try {
      selected = queryPath(document, path);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return {
        pass: false,
        error: `path '${path}' cannot be evaluated: ${/prevented/.test(reason) ? FILTERS_DISABLED : reason}`,
      };
    }
    const expected = assertion.value;
    if (expected === undefined) {
      // "Exists" means at least one node: an indefinite path (`$..id`, `[*]`, a slice) yields the
      // list of its matches, and an empty list selected nothing.
      return selectsNothing(selected, path)
        ? { pass: false, message: `path '${path}': expected a value, got nothing (no match)` }
        : { pass: true, message: `path '${path}' exists`, actual: selected };
    }
    const expectedText = exactText(assertion, 'value');
    if (selected === NO_MATCH)
      return {
        pass: false,
        message: `path '${path}': expected ${expectedText ?? preview(expected)}, got nothing (no match)`,
        expected,
      };
    // Integers beyond 2^53 compare by their source texts (the case file's, the reply's) when both have one.
    const actualText = isBigInteger(selected) ? selectedText(document, path) : undefined;
    if (deepEqual(selected, expected, actualText, expectedText))
      return { pass: true, message: `path '${path}' equals expected value`, expected, actual: selected };
    if (
      Array.isArray(expected) &&
      !Array.isArray(selected) &&
      expected.some((item, i) => deepEqual(selected, item, actualText, exactText(expected, i)))
    ) {
      return { pass: true, message: `path '${path}' equals one of expected values`, expected, actual: selected };
    }
    return {
      pass: false,
      message: `path '${path}': expected ${expectedText ?? preview(expected)}, got ${actualText ?? preview(selected)}`,
      expected,
      actual: selected,
    };
  },
});
