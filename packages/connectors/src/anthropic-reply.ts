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
  const message = new StreamedMessage(url);
  let count = 0;
  for await (const event of events) {
    count++;
    message.apply(event as StreamEvent);
  }
  if (!message.stopped)
    throw new ConnectorError(
      `the stream from ${url} ended before the reply was complete (no message_stop after ${count} events)`,
      { retryable: true },
    );
  return message.reply();
}

/** A message as its stream events build it: content blocks by index, usage, model and stop reason. */
class StreamedMessage {
  stopped = false;
  private readonly blocks: { type: string; text: string; json: string; id?: string; name?: string }[] = [];
  private model: string | undefined;
  private stopReason: string | null | undefined;
  private input = 0;
  private output = 0;

  constructor(private readonly url: string) {}

  apply(event: StreamEvent): void {
    switch (event.type) {
      case 'message_start':
        this.model = event.message?.model;
        this.input = event.message?.usage?.input_tokens ?? 0;
        this.output = event.message?.usage?.output_tokens ?? 0;
        break;
      case 'content_block_start': {
        const block = event.content_block ?? { type: 'text' };
        this.blocks[event.index ?? this.blocks.length] = {
          type: block.type,
          text: block.text ?? block.thinking ?? '',
          json: '',
          id: block.id,
          name: block.name,
        };
        break;
      }
      case 'content_block_delta': {
        const block = this.blocks[event.index ?? this.blocks.length - 1];
        if (!block) break;
        block.text += event.delta?.text ?? event.delta?.thinking ?? '';
        block.json += event.delta?.partial_json ?? '';
        break;
      }
      case 'message_delta':
        this.stopReason = event.delta?.stop_reason ?? this.stopReason;
        this.output = event.usage?.output_tokens ?? this.output;
        this.input = event.usage?.input_tokens ?? this.input;
        break;
      case 'message_stop':
        this.stopped = true;
        break;
      case 'error':
        throw new ConnectorError(
          `the stream from ${this.url} reported ${event.error?.type ?? 'an error'}: ${event.error?.message ?? ''}`,
          { retryable: event.error?.type === 'overloaded_error' || event.error?.type === 'api_error' },
        );
    }
  }

  reply(): AgentReply {
    const present = this.blocks.filter(Boolean);
    const textOf = (type: string) =>
      present
        .filter((b) => b.type === type)
        .map((b) => b.text)
        .join('');
    return buildReply({
      text: textOf('text'),
      toolCalls: present
        .filter((b) => b.type === 'tool_use')
        .map((b) => ({ ...(b.id ? { id: b.id } : {}), name: b.name ?? '', arguments: parseArguments(b.json) })),
      usage: usageOf(this.input, this.output),
      model: this.model,
      finishReason: this.stopReason,
      reasoning: textOf('thinking') || undefined,
    });
  }
}
