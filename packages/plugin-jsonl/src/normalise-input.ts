import type { ContentPart, Message, MessageToolCall } from '@agentest/kernel';
import { attachmentPolicy, type AttachmentPolicy } from './attachment.js';
import { normaliseContentPart } from './content-parts.js';
import { InputShapeError, typeName } from './input-error.js';

/**
 * Turns a case's `input` into the messages the agent receives, once, at load (Yao's
 * `ParseInputWithOptions`):
 *
 * - a string is one user message;
 * - a message object is one message (`role` defaults to `user`);
 * - an array of message objects is a conversation;
 * - a content part, or an array of content parts, is one user message with that content
 *   (an addition: Yao rejects a bare parts array).
 *
 * Numbers, booleans and empty conversations are errors. `files` governs `file://` parts: a policy,
 * or the folder relative paths start from (then the default policy for that folder).
 */
export function normaliseInput(input: unknown, files: AttachmentPolicy | string): Message[] {
  if (typeof input === 'string') return [{ role: 'user', content: input }];
  const policy = typeof files === 'string' ? attachmentPolicy(files) : files;
  if (Array.isArray(input)) {
    if (input.length === 0) throw new InputShapeError('"input" is an empty array: give a message or a conversation');
    if (input.every(isBarePart))
      return [{ role: 'user', content: input.map((part, i) => normaliseContentPart(part, policy, i)) }];
    return input.map((message, i) => normaliseMessage(message, policy, `message ${i}`));
  }
  if (input !== null && typeof input === 'object') {
    if (isBarePart(input)) return [{ role: 'user', content: [normaliseContentPart(input, policy, 0)] }];
    return [normaliseMessage(input, policy, 'the message')];
  }
  throw new InputShapeError(
    `"input" must be a string, a message object or an array of messages, got ${typeName(input)}`,
  );
}

/** A content part written where a message was expected: it has a `type` but no `role`/`content`. */
function isBarePart(value: unknown): boolean {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const v = value as Record<string, unknown>;
  return typeof v.type === 'string' && !('content' in v) && !('role' in v);
}

function normaliseMessage(value: unknown, files: AttachmentPolicy, what: string): Message {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new InputShapeError(`${what} must be an object with "role" and "content", got ${typeName(value)}`);
  }
  const m = value as Record<string, unknown>;
  const message: Message = { role: typeof m.role === 'string' && m.role ? m.role : 'user', content: null };
  const toolCalls =
    m.tool_calls === undefined || m.tool_calls === null ? undefined : normaliseToolCalls(m.tool_calls, what);
  // An assistant turn that only calls tools may leave `content` out, as the OpenAI API allows.
  if ((m.content === undefined || m.content === null) && !toolCalls?.length) {
    throw new InputShapeError(`${what} is missing its "content" field`);
  }
  message.content = normaliseContent(m.content ?? null, files, what);
  if (typeof m.name === 'string') message.name = m.name;
  if (typeof m.tool_call_id === 'string') message.tool_call_id = m.tool_call_id;
  if (toolCalls) message.tool_calls = toolCalls;
  if (typeof m.refusal === 'string') message.refusal = m.refusal;
  return message;
}

function normaliseContent(content: unknown, files: AttachmentPolicy, what: string): string | ContentPart[] | null {
  if (content === null || typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part, i) => normaliseContentPart(part, files, i));
  if (typeof content === 'object') return [normaliseContentPart(content, files, 0)];
  throw new InputShapeError(
    `${what}: "content" must be a string, a content part or an array of parts, got ${typeName(content)}`,
  );
}

/** `{id, type: "function", function: {name, arguments}}`, with object arguments serialised to JSON. */
function normaliseToolCalls(value: unknown, what: string): MessageToolCall[] {
  if (!Array.isArray(value))
    throw new InputShapeError(`${what}: "tool_calls" must be an array, got ${typeName(value)}`);
  return value.map((call, i) => {
    const c = (call ?? {}) as Record<string, unknown>;
    const fn = (c.function ?? {}) as Record<string, unknown>;
    if (typeof call !== 'object' || typeof fn.name !== 'string') {
      throw new InputShapeError(`${what}: tool_calls[${i}] needs {"function": {"name": "…", "arguments": …}}`);
    }
    const args =
      fn.arguments === undefined
        ? '{}'
        : typeof fn.arguments === 'string'
          ? fn.arguments
          : JSON.stringify(fn.arguments);
    return {
      ...(typeof c.id === 'string' ? { id: c.id } : {}),
      type: typeof c.type === 'string' ? c.type : 'function',
      function: { name: fn.name, arguments: args },
    };
  });
}
