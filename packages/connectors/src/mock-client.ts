import type { AgentReply, Message, ToolCall } from '@agentest/kernel';
import { callModel } from '@agentest/cassettes';
import { sleep } from './abort.js';
import { contentText, lastUserText } from './message-text.js';
import {
  parseMockOptions,
  type CompiledMockRule,
  type Latency,
  type MockOptions,
  type MockReplyValue,
  type MockToolCall,
} from './mock-options.js';
import { fillToolResult, isToolNamed, trailingToolResults, type MockToolResult } from './mock-tool-results.js';
import { hashString, mulberry32, pickWeighted } from '@agentest/common';
import type { ChatClient, ChatRequest } from './types.js';

/**
 * An offline, scripted model. Replies are chosen by the first rule whose `match` regex fits the last
 * user message; a rule with `choices` picks one by weight. When the conversation ends with tool
 * results (a tool loop's next turn), only `after_tool` rules for one of those tools are candidates,
 * then the default: a scripted model must not ask for the same tool again until the loop gives up.
 * Every random draw (error, choice, latency) comes from a PRNG seeded by (seed, input text, tool
 * results, how many times these were asked before), so `--runs 3` shows the same flakiness on every
 * invocation, whatever the parallelism.
 */
export class MockChatClient implements ChatClient {
  readonly type = 'mock';
  readonly model: string;
  private readonly options: MockOptions;
  private readonly rules: CompiledMockRule[];
  private readonly calls = new Map<string, number>();

  constructor(
    readonly id: string,
    raw: Record<string, unknown>,
  ) {
    ({ options: this.options, rules: this.rules } = parseMockOptions(id, raw));
    this.model = this.options.model ?? 'mock';
  }

  /**
   * Through the cassette boundary: the mock's "wire" request is the model, messages and options; its
   * reply is the reply itself.
   */
  chat(request: ChatRequest, signal: AbortSignal): Promise<AgentReply> {
    const body = {
      model: request.model ?? this.model,
      messages: request.messages,
      ...(request.options ? { options: request.options } : {}),
    };
    return callModel(
      { connector: this.id, type: this.type, model: body.model, ...(request.role ? { role: request.role } : {}), body },
      {
        live: async (recorder) => recorder.body(await this.answer(request, signal)),
        replay: async (recorded) => recorded.reply as AgentReply,
      },
      signal,
    );
  }

  private async answer(request: ChatRequest, signal: AbortSignal): Promise<AgentReply> {
    const text = lastUserText(request.messages);
    const results = trailingToolResults(request.messages);
    // Turns after tool results count apart from first turns, so parallel runs of one input draw alike.
    const key = results.length ? `${text}\u0000${results.map((r) => `${r.name}\u0000${r.text}`).join('\u0000')}` : text;
    const call = this.calls.get(key) ?? 0;
    this.calls.set(key, call + 1);
    const random = mulberry32(hashString(`${this.options.seed ?? 0}\u0000${key}\u0000${call}`));
    const [errorDraw, choiceDraw, latencyDraw] = [random(), random(), random()];

    const { rule, result } = this.pick(text, results);
    let reply: MockReplyValue | undefined = rule ? rule.reply : this.options.default;
    let toolCalls = rule?.tool_calls;
    let choiceIndex: number | undefined;
    if (rule?.choices) {
      choiceIndex = pickWeighted(
        rule.choices.map((c) => c.weight ?? 1),
        choiceDraw,
      );
      const choice = rule.choices[choiceIndex];
      reply = choice.reply;
      toolCalls = choice.tool_calls ?? toolCalls;
    }

    await sleep(latencyOf(rule?.latency_ms ?? this.options.latency_ms, latencyDraw), signal);
    if (this.options.error_rate && errorDraw < this.options.error_rate) {
      throw new Error(
        `mock connector "${this.id}": simulated failure (error_rate ${this.options.error_rate}, call ${call + 1} for this input)`,
      );
    }
    if (result) [reply, toolCalls] = [fillToolResult(reply, result), fillToolResult(toolCalls, result)];
    // Without a matching rule or a default, the mock echoes the input (or the tool results), so an
    // empty config still answers and a tool loop still ends.
    if (reply === undefined && !toolCalls?.length && !rule)
      reply = results.length ? results.map((r) => r.text).join('\n') : text;
    const picked = {
      rule: rule ? rule.index : 'default',
      ...(choiceIndex !== undefined ? { choice: choiceIndex } : {}),
      ...(result ? { tool_result: result.name } : {}),
    };
    return this.reply(reply, toolCalls, request.messages, picked);
  }

  /**
   * The rule that answers, and the tool result its placeholders read. After tool results: the first
   * `after_tool` rule naming one of them (and fitting `match`, if it has one), else none (the
   * default answers, with the first result at hand). Otherwise: the first rule without `after_tool`
   * whose `match` fits.
   */
  private pick(text: string, results: MockToolResult[]): { rule?: CompiledMockRule; result?: MockToolResult } {
    const fits = (rule: CompiledMockRule) => !rule.pattern || rule.pattern.test(text);
    if (!results.length) return { rule: this.rules.find((r) => r.after_tool === undefined && fits(r)) };
    for (const rule of this.rules) {
      if (rule.after_tool === undefined || !fits(rule)) continue;
      const result = results.find((r) => isToolNamed(r, rule.after_tool!));
      if (result) return { rule, result };
    }
    return { result: results[0] };
  }

  private reply(
    value: MockReplyValue | undefined,
    calls: MockToolCall[] | undefined,
    messages: Message[],
    picked: Record<string, unknown>,
  ): AgentReply {
    const content = value ?? '';
    const text = typeof content === 'string' ? content : JSON.stringify(content);
    const toolCalls: ToolCall[] = (calls ?? []).map((c, i) => ({
      id: c.id ?? `call_mock_${i}`,
      name: c.name,
      arguments: c.arguments ?? {},
    }));
    const prompt_tokens = estimateTokens(messages.map((m) => contentText(m.content)).join('\n'));
    const completion_tokens = estimateTokens(text);
    return {
      content,
      text,
      ...(toolCalls.length ? { toolCalls } : {}),
      usage: { prompt_tokens, completion_tokens, total_tokens: prompt_tokens + completion_tokens },
      trace: { model: this.model, finish_reason: toolCalls.length ? 'tool_calls' : 'stop', retries: 0, mock: picked },
    };
  }
}

function latencyOf(latency: Latency | undefined, draw: number): number {
  if (latency === undefined) return 0;
  if (typeof latency === 'number') return latency;
  return latency[0] + draw * (latency[1] - latency[0]);
}

function estimateTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}
