import { estimateTokens } from './request-text.js';
import type { PlannedReply } from './script.js';
import { sseEvent, splitText, type ReplyContext } from './sse.js';

/** Anthropic messages: the JSON body and the SSE events for one planned reply. */

function stopReason(reply: PlannedReply): string {
  return reply.finishReason ?? (reply.toolCalls.length ? 'tool_use' : 'end_turn');
}

function outputTokens(reply: PlannedReply): number {
  return (
    reply.usage?.completion_tokens ??
    estimateTokens(reply.text + reply.toolCalls.map((c) => c.name + c.arguments).join(''))
  );
}

function toolUseId(reply: PlannedReply, i: number, ctx: ReplyContext): string {
  return reply.toolCalls[i].id ?? `toolu_${ctx.id.slice(-8)}_${i}`;
}

function parseInput(args: string): unknown {
  try {
    return JSON.parse(args);
  } catch {
    return { raw: args };
  }
}

export function anthropicJson(reply: PlannedReply, ctx: ReplyContext): unknown {
  const content: unknown[] = [];
  if (reply.reasoning) content.push({ type: 'thinking', thinking: reply.reasoning, signature: 'fake' });
  if (reply.text || !reply.toolCalls.length) content.push({ type: 'text', text: reply.text });
  reply.toolCalls.forEach((call, i) =>
    content.push({
      type: 'tool_use',
      id: toolUseId(reply, i, ctx),
      name: call.name,
      input: parseInput(call.arguments),
    }),
  );
  return {
    id: ctx.id,
    type: 'message',
    role: 'assistant',
    model: ctx.model,
    content,
    stop_reason: stopReason(reply),
    stop_sequence: null,
    usage: { input_tokens: reply.usage?.prompt_tokens ?? ctx.promptTokens, output_tokens: outputTokens(reply) },
  };
}

export function anthropicStream(reply: PlannedReply, ctx: ReplyContext): string[] {
  const input_tokens = reply.usage?.prompt_tokens ?? ctx.promptTokens;
  const events = [
    sseEvent(
      {
        type: 'message_start',
        message: {
          id: ctx.id,
          type: 'message',
          role: 'assistant',
          model: ctx.model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens, output_tokens: 1 },
        },
      },
      'message_start',
    ),
  ];
  let index = 0;
  const block = (start: Record<string, unknown>, deltas: Record<string, unknown>[]) => {
    events.push(sseEvent({ type: 'content_block_start', index, content_block: start }, 'content_block_start'));
    for (const delta of deltas)
      events.push(sseEvent({ type: 'content_block_delta', index, delta }, 'content_block_delta'));
    events.push(sseEvent({ type: 'content_block_stop', index }, 'content_block_stop'));
    index++;
  };
  if (reply.reasoning)
    block(
      { type: 'thinking', thinking: '', signature: '' },
      splitText(reply.reasoning).map((thinking) => ({ type: 'thinking_delta', thinking })),
    );
  if (reply.text || !reply.toolCalls.length)
    block(
      { type: 'text', text: '' },
      splitText(reply.text).map((text) => ({ type: 'text_delta', text })),
    );
  reply.toolCalls.forEach((call, i) =>
    block(
      { type: 'tool_use', id: toolUseId(reply, i, ctx), name: call.name, input: {} },
      splitText(call.arguments).map((partial_json) => ({ type: 'input_json_delta', partial_json })),
    ),
  );
  events.push(
    sseEvent(
      {
        type: 'message_delta',
        delta: { stop_reason: stopReason(reply), stop_sequence: null },
        usage: { output_tokens: outputTokens(reply) },
      },
      'message_delta',
    ),
  );
  events.push(sseEvent({ type: 'message_stop' }, 'message_stop'));
  return events;
}

export function anthropicError(status: number, type: string, message: string): unknown {
  return { type: 'error', error: { type, message } };
}
