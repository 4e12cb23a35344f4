import type { AgentReply, Message, TokenUsage } from '@agentest/kernel';
import type { ToolSet } from './assistant-tools.js';
import type { ChatClient } from './chat-client.js';
import { runToolLoop, ToolLoopError } from './tool-loop.js';
import { runToolCall, type ExecutedTool, type ToolBackends } from './tool-runner.js';

export interface CompletionStepInput {
  client: ChatClient;
  messages: Message[];
  /** LLM parameters (package.yao `options`, the Create hook's); the tools are added here. */
  options: Record<string, unknown>;
  /** The tools offered to the model; none means the reply's tool calls are only reported. */
  tools?: ToolSet;
  backends: ToolBackends;
  /** Yao loops only for an assistant without a hook script whose `mcp.options.tool_loop` is not false. */
  loop: false | { maxTurns: number };
  signal: AbortSignal;
}

export interface CompletionStep {
  /** The last reply: the answer after a tool loop, else the one reply. */
  completion: AgentReply;
  /** Every tool call that ran, with its result or error. */
  tools: ExecutedTool[];
  /** How many LLM calls were made. */
  calls: number;
  usage?: TokenUsage;
  retries: number;
}

/**
 * Yao's LLM step: one call with the assistant's tools; when the reply asks for tools, they run
 * (before any Next hook, which sees them in `payload.tools`), and without a hook script their
 * results go back to the model in the automatic tool loop. A ToolLoopError that ends the loop is
 * rethrown with the step so far on it (`step`), for the case's trace.
 */
export async function completionStep(input: CompletionStepInput): Promise<CompletionStep> {
  const { client, tools, signal } = input;
  const offered = tools?.definitions.length ? tools : undefined;
  const options = offered ? { ...input.options, tools: offered.definitions } : input.options;
  const replies: AgentReply[] = [];
  const chat = async (messages: Message[]) => {
    const reply = await client.chat({ messages, options }, signal);
    replies.push(reply);
    return reply;
  };
  const first = await chat(input.messages);
  if (!offered || !first.toolCalls?.length) return summarize(first, [], replies);
  const runTools = (reply: AgentReply, turn: number) =>
    Promise.all(
      reply.toolCalls!.map((call, i) =>
        runToolCall(call, call.id || `call_${turn}_${i}`, offered, input.backends, signal),
      ),
    );
  const firstTools = await runTools(first, 0);
  if (!input.loop) return summarize(first, firstTools, replies);
  try {
    const loop = await runToolLoop({
      chat,
      runTools,
      messages: input.messages,
      first,
      firstTools,
      maxTurns: input.loop.maxTurns,
    });
    return summarize(loop.completion, loop.tools, replies);
  } catch (error) {
    if (error instanceof ToolLoopError)
      Object.assign(error, { step: summarize(replies.at(-1)!, error.tools, replies) });
    throw error;
  }
}

function summarize(completion: AgentReply, tools: ExecutedTool[], replies: AgentReply[]): CompletionStep {
  const usage = sumUsage(replies);
  const retries = replies.reduce((n, r) => n + (typeof r.trace?.retries === 'number' ? r.trace.retries : 0), 0);
  return { completion, tools, calls: replies.length, ...(usage ? { usage } : {}), retries };
}

function sumUsage(replies: AgentReply[]): TokenUsage | undefined {
  const withUsage = replies.filter((r) => r.usage);
  if (!withUsage.length) return undefined;
  const total: TokenUsage = {};
  for (const key of ['prompt_tokens', 'completion_tokens', 'total_tokens'] as const) {
    const values = withUsage.map((r) => r.usage![key]).filter((v): v is number => typeof v === 'number');
    if (values.length) total[key] = values.reduce((a, b) => a + b, 0);
  }
  return total;
}
