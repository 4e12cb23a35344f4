import { estimateTokens } from './request-text.js';
import type { PlannedReply } from './script.js';
import { sseEvent, splitText, type ReplyContext } from './sse.js';

/** OpenAI chat completions: the JSON body and the SSE chunks for one planned reply. */

function usageOf(reply: PlannedReply, ctx: ReplyContext) {
  const prompt_tokens = reply.usage?.prompt_tokens ?? ctx.promptTokens;
  const completion_tokens =
    reply.usage?.completion_tokens ??
    estimateTokens(reply.text + reply.toolCalls.map((c) => c.name + c.arguments).join(''));
  return { prompt_tokens, completion_tokens, total_tokens: prompt_tokens + completion_tokens };
}

function finishReason(reply: PlannedReply): string {
  return reply.finishReason ?? (reply.toolCalls.length ? 'tool_calls' : 'stop');
}

function toolCallId(reply: PlannedReply, i: number, ctx: ReplyContext): string {
  return reply.toolCalls[i].id ?? `call_${ctx.id.slice(-8)}_${i}`;
}

export function openaiJson(reply: PlannedReply, ctx: ReplyContext): unknown {
  const message: Record<string, unknown> = {
    role: 'assistant',
    content: reply.text || (reply.toolCalls.length ? null : ''),
    refusal: null,
  };
  if (reply.reasoning) message.reasoning_content = reply.reasoning;
  if (reply.toolCalls.length) {
    message.tool_calls = reply.toolCalls.map((call, i) => ({
      id: toolCallId(reply, i, ctx),
      type: 'function',
      function: { name: call.name, arguments: call.arguments },
    }));
  }
  return {
    id: ctx.id,
    object: 'chat.completion',
    created: ctx.created,
    model: ctx.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason(reply) }],
    usage: usageOf(reply, ctx),
  };
}

export function openaiStream(reply: PlannedReply, ctx: ReplyContext): string[] {
  const chunk = (delta: Record<string, unknown>, finish_reason: string | null = null) =>
    sseEvent({
      id: ctx.id,
      object: 'chat.completion.chunk',
      created: ctx.created,
      model: ctx.model,
      choices: [{ index: 0, delta, logprobs: null, finish_reason }],
    });
  const events = [chunk({ role: 'assistant', content: '' })];
  for (const piece of splitText(reply.reasoning ?? '')) events.push(chunk({ reasoning_content: piece }));
  for (const piece of splitText(reply.text)) events.push(chunk({ content: piece }));
  reply.toolCalls.forEach((call, index) => {
    events.push(
      chunk({
        tool_calls: [
          { index, id: toolCallId(reply, index, ctx), type: 'function', function: { name: call.name, arguments: '' } },
        ],
      }),
    );
    for (const piece of splitText(call.arguments))
      events.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
  });
  events.push(chunk({}, finishReason(reply)));
  if (ctx.includeUsage)
    events.push(
      sseEvent({
        id: ctx.id,
        object: 'chat.completion.chunk',
        created: ctx.created,
        model: ctx.model,
        choices: [],
        usage: usageOf(reply, ctx),
      }),
    );
  events.push(sseEvent('[DONE]'));
  return events;
}

export function openaiError(status: number, type: string, message: string): unknown {
  return { error: { message, type, param: null, code: type } };
}
