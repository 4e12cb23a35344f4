import type { ContentPart, Message } from '@agentest/kernel';
import { contentText, parseArguments } from './message-text.js';

/**
 * Maps the OpenAI-shaped messages and options every agent uses onto the Anthropic messages API:
 * system prompts go to `system`, assistant tool calls become `tool_use` blocks, tool messages
 * become `tool_result` blocks, and consecutive turns of one role are merged (the API wants them
 * to alternate).
 */

type Block = Record<string, unknown>;
interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: Block[];
}

/** Options the Anthropic API rejects; they are dropped rather than failing every call. */
const OPENAI_ONLY = new Set([
  'frequency_penalty',
  'presence_penalty',
  'seed',
  'response_format',
  'parallel_tool_calls',
  'reasoning_effort',
  'stream_options',
  'n',
  'logprobs',
  'top_logprobs',
  'logit_bias',
  'user',
]);

export function toAnthropicMessages(messages: Message[]): { system?: string; messages: AnthropicMessage[] } {
  const system: string[] = [];
  const out: AnthropicMessage[] = [];
  const push = (role: AnthropicMessage['role'], content: Block[]) => {
    if (!content.length) return;
    const last = out.at(-1);
    if (last?.role === role) last.content.push(...content);
    else out.push({ role, content });
  };
  for (const message of messages) {
    if (message.role === 'system' || message.role === 'developer') {
      const text = contentText(message.content);
      if (text) system.push(text);
    } else if (message.role === 'tool') {
      push('user', [
        { type: 'tool_result', tool_use_id: message.tool_call_id ?? '', content: contentText(message.content) },
      ]);
    } else if (message.role === 'assistant') {
      const calls = (message.tool_calls ?? []).map((call) => ({
        type: 'tool_use',
        id: call.id ?? '',
        name: call.function.name,
        input: toolInput(call.function.arguments),
      }));
      push('assistant', [...contentBlocks(message.content), ...calls]);
    } else {
      push('user', contentBlocks(message.content));
    }
  }
  return { ...(system.length ? { system: system.join('\n\n') } : {}), messages: out };
}

function toolInput(args: string): unknown {
  const parsed = parseArguments(args);
  return parsed && typeof parsed === 'object' ? parsed : { value: parsed };
}

function contentBlocks(content: Message['content']): Block[] {
  if (typeof content === 'string') return content ? [{ type: 'text', text: content }] : [];
  if (!Array.isArray(content)) return [];
  return content.map(partBlock);
}

function partBlock(part: ContentPart): Block {
  if (part.type === 'text') return { type: 'text', text: part.text ?? '' };
  if (part.type === 'image_url') {
    const url =
      typeof part.image_url === 'string'
        ? part.image_url
        : ((part.image_url as { url?: string } | undefined)?.url ?? '');
    const data = /^data:([^;,]+);base64,(.*)$/s.exec(url);
    return data
      ? { type: 'image', source: { type: 'base64', media_type: data[1], data: data[2] } }
      : { type: 'image', source: { type: 'url', url } };
  }
  // Anthropic-native parts (document, image with a source, …) pass through as written.
  return part as Block;
}

/** OpenAI-style request options mapped to Anthropic's names; unknown keys pass through. */
export function toAnthropicParams(options: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(options)) {
    if (OPENAI_ONLY.has(key) || value === undefined) continue;
    if (key === 'max_completion_tokens') out.max_tokens = value;
    else if (key === 'stop') out.stop_sequences = Array.isArray(value) ? value : [value];
    else if (key === 'tools' && Array.isArray(value)) out.tools = value.map(toolDefinition);
    else if (key === 'tool_choice') out.tool_choice = toolChoice(value);
    else out[key] = value;
  }
  return out;
}

function toolDefinition(tool: unknown): unknown {
  const t = tool as { type?: string; function?: { name: string; description?: string; parameters?: unknown } };
  if (t?.type !== 'function' || !t.function) return tool;
  return {
    name: t.function.name,
    ...(t.function.description ? { description: t.function.description } : {}),
    input_schema: t.function.parameters ?? { type: 'object', properties: {} },
  };
}

function toolChoice(choice: unknown): unknown {
  if (choice === 'auto') return { type: 'auto' };
  if (choice === 'required') return { type: 'any' };
  if (choice === 'none') return { type: 'none' };
  const named = choice as { type?: string; function?: { name?: string } };
  if (named?.type === 'function' && named.function?.name) return { type: 'tool', name: named.function.name };
  return choice;
}
