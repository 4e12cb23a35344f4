import type { ToolCall } from '@agentest/kernel';
import { defineAssertion, invalid, preview } from '../definition.js';
import { isPlainObject } from '../json/stable-stringify.js';
import { listNames, matchesPartially, matchesToolName, toolCallsOf } from '../tool-calls.js';

/**
 * A tool call succeeded and, when `value.result` is given, returned a matching result: objects match
 * partially and recursively, strings equal the result's text or match `regex:<RE2 pattern>`. If the
 * tool ran several times, any successful call with a matching result passes (Yao looks only at the
 * first call of the tool).
 */
export const toolResult = defineAssertion({
  type: 'tool_result',
  description: 'the tool `value.tool` ran without error and its result matches `value.result`',
  validate(assertion) {
    const spec = assertion.value;
    if (isPlainObject(spec) && typeof spec.tool === 'string' && spec.tool) return undefined;
    return invalid(assertion, '"value" must be {"tool": "<name>", "result": <expected, optional>}');
  },
  check(assertion, input) {
    const spec = assertion.value as { tool: string; result?: unknown };
    const tool = spec.tool;
    const expected = spec.result;
    const calls = toolCallsOf(input);
    if (calls.length === 0) return { pass: false, message: 'no tools were called', expected };
    const named = calls.filter((call) => matchesToolName(call, tool));
    if (named.length === 0)
      return { pass: false, message: `tool '${tool}' was not called, called: ${listNames(calls)}`, expected };

    const succeeded = named.filter((call) => !call.error);
    if (succeeded.length === 0)
      return { pass: false, message: `tool '${tool}' returned error: ${named[0]!.error}`, expected };
    if (expected === undefined || expected === null) {
      return { pass: true, message: `tool '${tool}' executed successfully`, actual: succeeded[0]!.result };
    }
    const match = succeeded.find((call) => matchesPartially(call.result, expected, true));
    if (match) return { pass: true, message: `tool '${tool}' result matches expected`, expected, actual: match.result };
    return { pass: false, message: mismatch(tool, expected, succeeded), expected, actual: succeeded[0]!.result };
  },
});

function mismatch(tool: string, expected: unknown, calls: ToolCall[]): string {
  return `tool '${tool}' result does not match expected ${preview(expected)}, got ${calls.map((call) => preview(call.result)).join(' | ')}`;
}
