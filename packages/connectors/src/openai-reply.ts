import type { AgentReply, TokenUsage, ToolCall } from '@agentest/kernel';
import { ConnectorError } from './connector-error.js';
import { parseArguments } from './message-text.js';

/**
 * Builds the AgentReply from an OpenAI-compatible completion, whole or streamed. Servers differ in
 * the extras (`reasoning_content` from DeepSeek and vLLM, `reasoning` from others), so the shapes
 * are read loosely rather than through the SDK's types.
 */

interface WireToolCall {
  index?: number;
  id?: string;
  function?: { name?: string; arguments?: string };
}

interface WireMessage {
  content?: string | null;
  tool_calls?: WireToolCall[] | null;
  reasoning_content?: string | null;
  reasoning?: string | null;
}

interface WireUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  total_tokens?: number;
}

interface WireCompletion {
  model?: string;
  choices?: { message?: WireMessage; delta?: WireMessage; finish_reason?: string | null }[];
  usage?: WireUsage | null;
}

export function usageOf(usage: WireUsage | null | undefined): TokenUsage | undefined {
  if (!usage) return undefined;
  const prompt_tokens = usage.prompt_tokens ?? 0;
  const completion_tokens = usage.completion_tokens ?? 0;
  return { prompt_tokens, completion_tokens, total_tokens: usage.total_tokens ?? prompt_tokens + completion_tokens };
}

export function buildReply(parts: {
  text: string;
  toolCalls: ToolCall[];
  usage?: TokenUsage;
  model?: string;
  finishReason?: string | null;
  reasoning?: string;
}): AgentReply {
  const trace: Record<string, unknown> = {
    model: parts.model,
    finish_reason: parts.finishReason ?? undefined,
    retries: 0,
  };
  if (parts.reasoning) trace.reasoning_content = parts.reasoning;
  return {
    content: parts.text,
    text: parts.text,
    ...(parts.toolCalls.length ? { toolCalls: parts.toolCalls } : {}),
    ...(parts.usage ? { usage: parts.usage } : {}),
    trace,
  };
}

export function openaiReply(completion: unknown, url: string): AgentReply {
  const c = completion as WireCompletion;
  const choice = c?.choices?.[0];
  if (!choice?.message)
    throw new ConnectorError(
      `the reply from ${url} has no choices[0].message (got ${JSON.stringify(completion)?.slice(0, 200)})`,
    );
  const message = choice.message;
  return buildReply({
    text: typeof message.content === 'string' ? message.content : '',
    toolCalls: (message.tool_calls ?? []).map((call) => ({
      ...(call.id ? { id: call.id } : {}),
      name: call.function?.name ?? '',
      arguments: parseArguments(call.function?.arguments),
    })),
    usage: usageOf(c.usage),
    model: c.model,
    finishReason: choice.finish_reason,
    reasoning: message.reasoning_content ?? message.reasoning ?? undefined,
  });
}

/** Assembles streamed chunks: text and reasoning deltas appended, tool-call deltas merged by index. */
export async function openaiStreamReply(chunks: AsyncIterable<unknown>, url: string): Promise<AgentReply> {
  let text = '';
  let reasoning = '';
  let model: string | undefined;
  let finishReason: string | null | undefined;
  let usage: TokenUsage | undefined;
  let count = 0;
  const calls: { id?: string; name: string; arguments: string }[] = [];
  for await (const raw of chunks) {
    count++;
    const chunk = raw as WireCompletion;
    model ??= chunk.model;
    if (chunk.usage) usage = usageOf(chunk.usage);
    const choice = chunk.choices?.[0];
    if (!choice) continue;
    const delta = choice.delta ?? {};
    if (typeof delta.content === 'string') text += delta.content;
    reasoning += delta.reasoning_content ?? delta.reasoning ?? '';
    for (const part of delta.tool_calls ?? []) {
      const call = (calls[part.index ?? calls.length - 1] ??= { name: '', arguments: '' });
      if (part.id) call.id = part.id;
      if (part.function?.name) call.name += part.function.name;
      if (part.function?.arguments) call.arguments += part.function.arguments;
    }
    if (choice.finish_reason) finishReason = choice.finish_reason;
  }
  if (!finishReason) {
    throw new ConnectorError(
      `the stream from ${url} ended before the reply was complete (no finish_reason after ${count} chunks)`,
      { retryable: true },
    );
  }
  return buildReply({
    text,
    toolCalls: calls.filter(Boolean).map((call) => ({
      ...(call.id ? { id: call.id } : {}),
      name: call.name,
      arguments: parseArguments(call.arguments),
    })),
    usage,
    model,
    finishReason,
    reasoning: reasoning || undefined,
  });
}
