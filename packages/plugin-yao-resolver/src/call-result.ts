import type { AgentReply, MessageToolCall, ToolCall } from '@agentest/kernel';
import type { CompletionStep } from './completion-step.js';
import { isEmptyData } from './hook-responses.js';

// What one assistant call leaves: its reply, its trace (what reports show of the call), and the completion
// its Next hook sees.

/** What the hooks printed (`console.log`), kept in the trace for reports. */
export function keepLogs(trace: Record<string, unknown>, logs: string[]): void {
  if (logs.length) trace.logs = [...((trace.logs as string[] | undefined) ?? []), ...logs];
}

/** The LLM step in the trace: the last completion, and the turns and tool calls when tools ran. */
export function stepTrace(step: CompletionStep): Record<string, unknown> {
  return {
    completion: completionTrace(step.completion),
    ...(step.calls > 1 ? { llm_calls: step.calls } : {}),
    ...(step.tools.length ? { tool_calls: step.tools.map((t) => t.call) } : {}),
    ...(step.retries ? { retries: step.retries } : {}),
  };
}

function completionTrace(reply: AgentReply): Record<string, unknown> {
  return {
    content: reply.content,
    ...(reply.toolCalls?.length ? { tool_calls: reply.toolCalls } : {}),
    ...(reply.usage ? { usage: reply.usage } : {}),
    ...(reply.trace ?? {}),
  };
}

/** The `completion` a Next hook sees, in Yao's (OpenAI's) field names. */
export function completionPayload(reply: AgentReply): Record<string, unknown> {
  const t = reply.trace ?? {};
  return {
    ...(t.id !== undefined ? { id: t.id } : {}),
    ...(t.model !== undefined ? { model: t.model } : {}),
    role: 'assistant',
    content: reply.content,
    ...(reply.toolCalls?.length ? { tool_calls: reply.toolCalls.map(toMessageToolCall) } : {}),
    ...(t.reasoning_content !== undefined ? { reasoning_content: t.reasoning_content } : {}),
    ...(t.finish_reason !== undefined ? { finish_reason: t.finish_reason } : {}),
    ...(reply.usage ? { usage: reply.usage } : {}),
  };
}

function toMessageToolCall(call: ToolCall): MessageToolCall {
  const args = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {});
  return { ...(call.id ? { id: call.id } : {}), type: 'function', function: { name: call.name, arguments: args } };
}

/** The output: the Next hook's `data` when it is not empty, else the completion's content, else null. */
export function replyOf(data: unknown, step: CompletionStep | undefined, trace: Record<string, unknown>): AgentReply {
  const completion = step?.completion;
  const content = !isEmptyData(data)
    ? data
    : completion && !isEmptyData(completion.content)
      ? completion.content
      : null;
  const toolCalls = step?.tools.length ? step.tools.map((t) => t.call) : completion?.toolCalls;
  return {
    content,
    text: display(content),
    ...(toolCalls?.length ? { toolCalls } : {}),
    ...(step?.usage ? { usage: step.usage } : {}),
    trace,
  };
}

function display(content: unknown): string {
  if (content === null || content === undefined) return '';
  return typeof content === 'string' ? content : JSON.stringify(content);
}
