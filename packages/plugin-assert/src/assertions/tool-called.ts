import type { ToolCall } from '@agentest/kernel';
import { defineAssertion, invalid, preview } from '../definition.js';
import { isPlainObject } from '../json/stable-stringify.js';
import { listNames, matchesPartially, matchesToolName, parsedArguments, toolCallsOf } from '../tool-calls.js';

/**
 * The agent called a tool. `value` is a tool name, a list of names (any of them), or
 * `{name, arguments}` where `arguments` is matched partially against the call's arguments (a JSON
 * string or an object). Names match exactly or as a suffix after `__` or `.` (see `matchesToolName`).
 * Without a `value`, any tool call passes, so `{"type": "tool_called", "negate": true}` asserts that
 * no tool was called.
 */
export const toolCalled = defineAssertion({
  type: 'tool_called',
  description: 'the agent called the tool named in `value` (a name, a list of names, or {name, arguments})',
  validate(assertion) {
    if (assertion.value === undefined) return undefined;
    const items = Array.isArray(assertion.value) ? assertion.value : [assertion.value];
    if (items.length === 0) return invalid(assertion, '"value" is an empty list: name at least one tool');
    const problem = items.map(toolSpec).find((spec): spec is string => typeof spec === 'string');
    return problem === undefined ? undefined : invalid(assertion, problem);
  },
  check(assertion, input) {
    const calls = toolCallsOf(input);
    const actual = calls.map((call) => call.name);
    if (assertion.value === undefined) {
      return calls.length
        ? { pass: true, message: `tools were called: ${listNames(calls)}`, actual }
        : { pass: false, message: 'no tools were called', actual };
    }
    const specs = (Array.isArray(assertion.value) ? assertion.value : [assertion.value]).map(toolSpec) as ToolSpec[];
    if (calls.length === 0) return { pass: false, message: 'no tools were called', expected: assertion.value, actual };
    for (const spec of specs) {
      if (!calls.some((call) => matches(call, spec))) continue;
      const how = spec.arguments === undefined ? '' : ' with matching arguments';
      return { pass: true, message: `tool '${spec.name}' was called${how}`, expected: assertion.value, actual };
    }
    return { pass: false, message: failure(specs, calls), expected: assertion.value, actual };
  },
});

interface ToolSpec {
  name: string;
  arguments?: unknown;
}

function toolSpec(item: unknown): ToolSpec | string {
  if (typeof item === 'string' && item) return { name: item };
  if (isPlainObject(item) && typeof item.name === 'string' && item.name) {
    return item.arguments === undefined || item.arguments === null
      ? { name: item.name }
      : { name: item.name, arguments: parsedArguments(item.arguments) };
  }
  return `"value" must be a tool name, a list of names, or {"name": …, "arguments": {…}}; got ${preview(item)}`;
}

function matches(call: ToolCall, spec: ToolSpec): boolean {
  return (
    matchesToolName(call, spec.name) &&
    (spec.arguments === undefined || matchesPartially(parsedArguments(call.arguments), spec.arguments, false))
  );
}

function failure(specs: ToolSpec[], calls: ToolCall[]): string {
  if (specs.length > 1) return `none of the expected tools were called, called: ${listNames(calls)}`;
  const spec = specs[0]!;
  const named = calls.filter((call) => matchesToolName(call, spec.name));
  if (named.length && spec.arguments !== undefined) {
    return `tool '${spec.name}' was not called with expected arguments ${preview(spec.arguments)}, got ${named.map((call) => preview(parsedArguments(call.arguments))).join(' | ')}`;
  }
  return `tool '${spec.name}' was not called, called: ${listNames(calls)}`;
}
