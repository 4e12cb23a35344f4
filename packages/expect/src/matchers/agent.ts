import { equals, matchesSubset } from '../equals.js';
import { show } from '../format.js';
import { queryJsonPath } from '../json-path.js';
import { judging, misuse, subjects, type Matcher } from '../matcher.js';

/** Matchers for what agents do besides talking: tool calls and fields deep inside a response. */
export const agentMatchers = {
  /**
   * Passes when the agent called tool `name`; with `args`, one such call must carry at least those
   * arguments (extra arguments are fine; JSON-string arguments are parsed first).
   */
  toHaveCalledTool: judging(subjects.result, (received, name: string, args?: Record<string, unknown>) => {
    if (typeof name !== 'string' || name === '')
      misuse(`toHaveCalledTool needs a tool name, got ${show(name)}`, received);
    const calls = toolCallsOf(received);
    const named = calls.filter((call) => call.name === name);
    const pass = args === undefined ? named.length > 0 : named.some((call) => matchesSubset(call.arguments, args));
    const wanted = `call to tool ${show(name)}${args === undefined ? '' : ` with ${show(args)}`}`;
    const made = calls.length
      ? calls.map((c) => `${c.name}(${c.arguments === undefined ? '' : show(c.arguments)})`).join(', ')
      : 'none';
    return {
      pass,
      actual: calls,
      expected: args === undefined ? name : { name, arguments: args },
      message: (negated) => `expected ${negated ? 'no' : 'a'} ${wanted}, calls made: ${made}`,
    };
  }),

  /**
   * Evaluates a JSONPath (`$.data.items[0].id`, `data.items[*].id`) against the received value. With a
   * value, some match must equal it structurally; without one, the path must match something.
   */
  toMatchJsonPath: judging(subjects.json, (received, path: string, ...value: unknown[]) => {
    if (typeof path !== 'string' || path.trim() === '')
      misuse(`toMatchJsonPath needs a JSONPath string, got ${show(path)}`, received);
    const { path: normalized, matches } = queryJsonPath(received, path);
    if (value.length === 0) {
      return {
        pass: matches.length > 0,
        actual: matches,
        message: (negated) =>
          negated
            ? `expected nothing at ${normalized}, found ${show(matches)}`
            : `expected ${normalized} to match something in ${show(received)}`,
      };
    }
    const expected = value[0];
    const got = matches.length === 0 ? 'nothing' : matches.length === 1 ? show(matches[0]) : show(matches);
    return {
      pass: matches.some((match) => equals(match, expected)),
      actual: matches.length === 1 ? matches[0] : matches,
      expected,
      message: (negated) => `expected ${normalized} ${negated ? 'not ' : ''}to equal ${show(expected)}, got ${got}`,
    };
  }),
} satisfies Record<string, Matcher>;

interface NormalizedCall {
  name: string;
  arguments?: unknown;
}

/**
 * The tool calls a value records: an array of calls itself, or `toolCalls` / `tool_calls` on a reply
 * or on its `raw`. Calls may be agentest's `{name, arguments}` or OpenAI's `{function: {name, arguments}}`.
 */
function toolCallsOf(received: unknown): NormalizedCall[] {
  const list = Array.isArray(received) ? received : listIn(received as Record<string, unknown>);
  return list.flatMap((call) => {
    if (typeof call !== 'object' || call === null) return [];
    const c = call as { name?: unknown; arguments?: unknown; function?: { name?: unknown; arguments?: unknown } };
    const name = c.function?.name ?? c.name;
    if (typeof name !== 'string') return [];
    const args = c.function ? c.function.arguments : c.arguments;
    return [{ name, ...(args === undefined ? {} : { arguments: parseArguments(args) }) }];
  });
}

function listIn(result: Record<string, unknown>): unknown[] {
  const raw = typeof result.raw === 'object' && result.raw !== null ? (result.raw as Record<string, unknown>) : {};
  for (const candidate of [result.toolCalls, result.tool_calls, raw.toolCalls, raw.tool_calls]) {
    if (Array.isArray(candidate)) return candidate;
  }
  return [];
}

function parseArguments(args: unknown): unknown {
  if (typeof args !== 'string') return args;
  try {
    return JSON.parse(args);
  } catch {
    return args;
  }
}
