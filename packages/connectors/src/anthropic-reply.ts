import type { AgentReply, TokenUsage, ToolCall } from '@agentest/kernel';
import { ConnectorError } from './connector-error.js';
import { parseArguments } from './message-text.js';
import { buildReply } from './openai-reply.js';

/** Builds the AgentReply from an Anthropic message, whole or streamed as events. */

interface WireBlock {
  type: string;
  text?: string;
  thinking?: string;
  id?: string;
  name?: string;
  input?: unknown;
}

interface WireUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
}

function usageOf(input: number, output: number): TokenUsage {
  return { prompt_tokens: input, completion_tokens: output, total_tokens: input + output };
}

export function anthropicReply(message: unknown, url: string): AgentReply {
  const m = message as { model?: string; content?: WireBlock[]; stop_reason?: string | null; usage?: WireUsage };
  if (!Array.isArray(m?.content))
    throw new ConnectorError(
      `the reply from ${url} has no content blocks (got ${JSON.stringify(message)?.slice(0, 200)})`,
    );
  const toolCalls: ToolCall[] = m.content
    .filter((b) => b.type === 'tool_use')
    .map((b) => ({ ...(b.id ? { id: b.id } : {}), name: b.name ?? '', arguments: b.input ?? {} }));
  return buildReply({
    text: m.content
      .filter((b) => b.type === 'text')
      .map((b) => b.text ?? '')
      .join(''),
    toolCalls,
    usage: m.usage ? usageOf(m.usage.input_tokens ?? 0, m.usage.output_tokens ?? 0) : undefined,
    model: m.model,
    finishReason: m.stop_reason,
    reasoning:
      m.content
        .filter((b) => b.type === 'thinking')
        .map((b) => b.thinking ?? '')
        .join('') || undefined,
  });
}

interface StreamEvent {
  type: string;
  index?: number;
  message?: { model?: string; usage?: WireUsage };
  content_block?: WireBlock;
  delta?: { type?: string; text?: string; partial_json?: string; thinking?: string; stop_reason?: string | null };
  usage?: WireUsage;
  error?: { type?: string; message?: string };
}

/** Assembles `message_start … message_stop`; a stream that stops before `message_stop` was cut. */
export async function anthropicStreamReply(events: AsyncIterable<unknown>, url: string): Promise<AgentReply> {
  const blocks: { type: string; text: string; json: string; id?: string; name?: string }[] = [];
  let model: string | undefined;
  let stopReason: string | null | undefined;
  let input = 0;
  let output = 0;
  let stopped = false;
  let count = 0;
  for await (const raw of events) {
    count++;
    const event = raw as StreamEvent;
    switch (event.type) {
      case 'message_start':
        model = event.message?.model;
        input = event.message?.usage?.input_tokens ?? 0;
        output = event.message?.usage?.output_tokens ?? 0;
        break;
      case 'content_block_start': {
        const block = event.content_block ?? { type: 'text' };
        blocks[event.index ?? blocks.length] = {
          type: block.type,
          text: block.text ?? block.thinking ?? '',
          json: '',
          id: block.id,
          name: block.name,
        };
        break;
      }
      case 'content_block_delta': {
        const block = blocks[event.index ?? blocks.length - 1];
        if (!block) break;
        block.text += event.delta?.text ?? event.delta?.thinking ?? '';
        block.json += event.delta?.partial_json ?? '';
        break;
      }
      case 'message_delta':
        stopReason = event.delta?.stop_reason ?? stopReason;
        output = event.usage?.output_tokens ?? output;
        input = event.usage?.input_tokens ?? input;
        break;
      case 'message_stop':
        stopped = true;
        break;
      case 'error':
        throw new ConnectorError(
          `the stream from ${url} reported ${event.error?.type ?? 'an error'}: ${event.error?.message ?? ''}`,
          { retryable: event.error?.type === 'overloaded_error' || event.error?.type === 'api_error' },
        );
    }
  }
  if (!stopped)
    throw new ConnectorError(
      `the stream from ${url} ended before the reply was complete (no message_stop after ${count} events)`,
      { retryable: true },
    );
  const present = blocks.filter(Boolean);
  return buildReply({
    text: present
      .filter((b) => b.type === 'text')
      .map((b) => b.text)
      .join(''),
    toolCalls: present
      .filter((b) => b.type === 'tool_use')
      .map((b) => ({ ...(b.id ? { id: b.id } : {}), name: b.name ?? '', arguments: parseArguments(b.json) })),
    usage: usageOf(input, output),
    model,
    finishReason: stopReason,
    reasoning:
      present
        .filter((b) => b.type === 'thinking')
        .map((b) => b.text)
        .join('') || undefined,
  });
}
