import type { AgentReply, Message } from '@agentest/kernel';
import { toolMessageContent, type ExecutedTool } from './tool-runner.js';

export interface ToolLoopInput {
  /** One more LLM call with the same options (tools included). */
  chat(messages: Message[]): Promise<AgentReply>;
  /** Runs the tool calls of one reply; `turn` numbers them for generated call ids. */
  runTools(reply: AgentReply, turn: number): Promise<ExecutedTool[]>;
  /** The messages of the first LLM call. */
  messages: Message[];
  /** The first reply, which asked for tools, and what those tools returned. */
  first: AgentReply;
  firstTools: ExecutedTool[];
  /** LLM calls allowed after the first one (package.yao `mcp.options.max_turn`). */
  maxTurns: number;
}

export interface ToolLoopResult {
  /** The reply without tool calls: the assistant's answer. */
  completion: AgentReply;
  /** Every tool call of every turn, in order. */
  tools: ExecutedTool[];
  /** Every LLM reply, the first included. */
  replies: AgentReply[];
}

/**
 * Yao's automatic tool loop, for an assistant without hooks: the tool results go back to the model
 * (its reply with `tool_calls`, then one `tool` message per call) until a reply asks for no tools.
 * After `maxTurns` more calls the loop gives up with a ToolLoopError that keeps what happened.
 */
export async function runToolLoop(input: ToolLoopInput): Promise<ToolLoopResult> {
  const tools = [...input.firstTools];
  const replies = [input.first];
  let messages = input.messages;
  let reply = input.first;
  let lastTools = input.firstTools;
  for (let turn = 1; turn <= input.maxTurns; turn++) {
    messages = [...messages, assistantTurn(reply, lastTools), ...lastTools.map(toolMessage)];
    reply = await input.chat(messages);
    replies.push(reply);
    if (!reply.toolCalls?.length) return { completion: reply, tools, replies };
    lastTools = await input.runTools(reply, turn);
    tools.push(...lastTools);
  }
  throw new ToolLoopError(input.maxTurns, tools, replies);
}

/** The loop ran out of turns while the model still asked for tools. */
export class ToolLoopError extends Error {
  override readonly name = 'ToolLoopError';
  constructor(
    readonly maxTurns: number,
    readonly tools: ExecutedTool[],
    readonly replies: AgentReply[],
  ) {
    super(
      `tool loop reached max turns (${maxTurns}): the model still asked for tools after ${tools.length} tool call(s). ` +
        `Yao would hand the conversation to its __yao.loop_fallback assistant, which agentest does not run; ` +
        `raise "mcp.options.max_turn" in package.yao, or check the tool results in the trace`,
    );
  }
}

/** The model's reply that asked for the tools, as the conversation must repeat it. */
function assistantTurn(reply: AgentReply, tools: ExecutedTool[]): Message {
  const content =
    typeof reply.content === 'string'
      ? reply.content
      : reply.content === null || reply.content === undefined
        ? ''
        : JSON.stringify(reply.content);
  return {
    role: 'assistant',
    content,
    tool_calls: tools.map(({ call, payload }) => ({
      id: payload.toolcall_id,
      type: 'function',
      function: { name: call.name, arguments: payload.arguments },
    })),
  };
}

function toolMessage(executed: ExecutedTool): Message {
  return { role: 'tool', tool_call_id: executed.payload.toolcall_id, content: toolMessageContent(executed) };
}
