import type { Message } from '@agentest/kernel';
import { contentText } from './message-text.js';

/** One `tool` message at the end of a conversation, named after the call that asked for it. */
export interface MockToolResult {
  /** The tool's name as the model called it (`agents_orders_shop__lookup_order`), or `""` when unknown. */
  name: string;
  /** The tool message's content as text: what the tool returned (JSON text for data). */
  text: string;
}

/**
 * The tool results a conversation ends with, in order: the trailing run of `tool` messages. Each is
 * named through the `tool_calls` entry with its `tool_call_id` in an earlier assistant message (the
 * OpenAI shape every connector receives), else by the message's own `name`. A conversation that ends
 * with anything else has none, so the mock answers its last user message as usual.
 */
export function trailingToolResults(messages: Message[]): MockToolResult[] {
  let start = messages.length;
  while (start > 0 && messages[start - 1].role === 'tool') start--;
  return messages.slice(start).map((message) => ({
    name: callName(messages, start, message.tool_call_id) ?? message.name ?? '',
    text: contentText(message.content),
  }));
}

function callName(messages: Message[], before: number, id: string | undefined): string | undefined {
  if (id === undefined) return undefined;
  for (let i = before - 1; i >= 0; i--) {
    const call = messages[i].tool_calls?.find((c) => c.id === id);
    if (call) return call.function.name;
  }
  return undefined;
}

/**
 * Whether a tool result is of the tool a rule names: the same name, or the name under a server
 * (`lookup_order` is `agents_orders_shop__lookup_order`), as `tool_called` assertions read names.
 */
export function isToolNamed(result: MockToolResult, expected: string): boolean {
  return result.name === expected || result.name.endsWith(`__${expected}`);
}

const PLACEHOLDER = /\{\{\s*tool_result(?:\.([\w$-]+(?:\.[\w$-]+)*))?\s*\}\}/g;

/**
 * Fills `{{tool_result}}` (the result's text) and `{{tool_result.a.b}}` (a field of a JSON result;
 * numbers index arrays) in every string of a reply or of tool call arguments. A missing field, or a
 * result that is not JSON, fills in as `""`; a field that is not a string fills in as its JSON.
 */
export function fillToolResult<T>(value: T, result: MockToolResult): T {
  let parsed: { value: unknown } | undefined;
  const data = () => (parsed ??= { value: parseJson(result.text) }).value;
  const fill = (item: unknown): unknown => {
    if (typeof item === 'string')
      return item.replace(PLACEHOLDER, (_, path: string | undefined) =>
        path === undefined ? result.text : asText(fieldAt(data(), path)),
      );
    if (Array.isArray(item)) return item.map(fill);
    if (item !== null && typeof item === 'object')
      return Object.fromEntries(Object.entries(item).map(([k, v]) => [k, fill(v)]));
    return item;
  };
  return fill(value) as T;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function fieldAt(data: unknown, path: string): unknown {
  let current = data;
  for (const key of path.split('.')) {
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, key)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

function asText(value: unknown): string {
  if (value === undefined) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}
