import type { AssertInput, ToolCall } from '@agentest/kernel';
import { deepEqual } from './json/deep-equal.js';
import { isPlainObject, searchableText } from './json/stable-stringify.js';
import { compileRegex } from './regex.js';

/** The tool calls of the run being judged: the executor's record, else the agent's reply. */
export function toolCallsOf(input: AssertInput): ToolCall[] {
  return input.execution.tool_calls ?? input.execution.reply?.toolCalls ?? [];
}

/**
 * Whether a call is the tool a test names: the same name, or the name under a namespace
 * (`agents_expense_tools__setup` and `github.create_issue` are `setup` and `create_issue`), or
 * `server.name` / `server__name` for a call that carries its server. Yao also accepts any substring,
 * so `get` matches `forget` and `target_list`; that is not reproduced.
 */
export function matchesToolName(call: ToolCall, expected: string): boolean {
  const name = call.name;
  if (name === expected || name.endsWith(`__${expected}`) || name.endsWith(`.${expected}`)) return true;
  return call.server !== undefined && (expected === `${call.server}.${name}` || expected === `${call.server}__${name}`);
}

/** Tool arguments as a value: the JSON string most APIs send, parsed; anything else as given. */
export function parsedArguments(args: unknown): unknown {
  if (typeof args !== 'string') return args;
  try {
    return JSON.parse(args);
  } catch {
    return args;
  }
}

/**
 * Recursive partial match: an expected object matches an object holding at least its keys (each
 * matching), an expected array matches an array of the same length element by element, anything
 * else compares structurally. With `patterns`, an expected string `regex:<re>` matches any value
 * whose text matches, and a plain expected string equals the value's text (`"42"` matches `42`).
 */
export function matchesPartially(actual: unknown, expected: unknown, patterns: boolean): boolean {
  if (isPlainObject(expected)) {
    const object = parsedArguments(actual);
    if (!isPlainObject(object)) return false;
    return Object.keys(expected).every(
      (key) => expected[key] === undefined || (key in object && matchesPartially(object[key], expected[key], patterns)),
    );
  }
  if (Array.isArray(expected)) {
    return (
      Array.isArray(actual) &&
      actual.length === expected.length &&
      expected.every((item, i) => matchesPartially(actual[i], item, patterns))
    );
  }
  if (patterns && typeof expected === 'string') {
    const text = searchableText(actual);
    if (expected.startsWith('regex:')) {
      const regex = compileRegex(expected.slice('regex:'.length));
      return typeof regex !== 'string' && regex.test(text);
    }
    return text === expected;
  }
  return deepEqual(actual, expected);
}

/** `name, name2` for messages. */
export function listNames(calls: readonly ToolCall[]): string {
  return calls.length ? calls.map((call) => call.name).join(', ') : 'none';
}
