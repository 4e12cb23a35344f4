/** A chat message as agents receive it: the OpenAI shape, which every connector maps from. */
export interface Message {
  role: 'system' | 'user' | 'assistant' | 'tool' | 'developer' | (string & {});
  content: string | ContentPart[] | null;
  name?: string;
  tool_call_id?: string;
  tool_calls?: MessageToolCall[];
  refusal?: string;
}

/** One part of a multimodal message (`text`, `image_url`, `input_audio`, `file`, `data`, …). */
export interface ContentPart {
  type: string;
  text?: string;
  [key: string]: unknown;
}

export interface MessageToolCall {
  id?: string;
  type?: 'function' | (string & {});
  function: { name: string; arguments: string };
}

/** A tool call an agent made, as surfaced on its reply and checked by tool assertions. */
export interface ToolCall {
  id?: string;
  server?: string;
  name: string;
  arguments?: unknown;
  result?: unknown;
  error?: string;
}
