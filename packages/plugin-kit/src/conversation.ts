import type { AgentReply, ExecuteContext, Message, TestCase } from '@agentest/kernel';
import { Simulations } from './simulations.js';
import type { RunInput, RunResult } from './types.js';

/** One `ctx.run` call as reports show it. */
export interface Turn {
  query: string;
  duration_ms: number;
  grade?: string;
  metrics: Record<string, number>;
}

/**
 * The main-thread side of `ctx.run`: each call sends the conversation so far plus the new user
 * message to the suite's agent, so connector agents see earlier turns; adapters get the new `query`
 * and whatever extra fields the test passed (`sessionId`, …). It keeps the last reply and every
 * turn's metrics, from which the kit rule (`testMetrics`) measures the test.
 */
export class Conversation {
  readonly turns: Turn[] = [];
  lastReply?: AgentReply;
  lastResult?: RunResult;
  private readonly history: Message[] = [];

  /** `ctx.simulate`'s conversations, on this thread. */
  readonly simulations: Simulations;

  constructor(
    private readonly testCase: TestCase,
    private readonly ctx: ExecuteContext,
  ) {
    this.simulations = new Simulations(testCase, ctx);
  }

  async run(input: RunInput): Promise<RunResult> {
    const agent = this.ctx.agent;
    if (!agent) throw new Error('ctx.run: this suite has no agent; pass -n <agent-id> or set one in the config');
    const { messages, extra, query } = this.request(input);
    const started = performance.now();
    let reply: AgentReply;
    try {
      reply = await agent.run(messages, this.ctx.context, this.ctx.signal, { extra, testCase: this.testCase });
    } catch (error) {
      const text = error instanceof Error ? error.message || error.name : String(error);
      throw new Error(`ctx.run(${JSON.stringify(query)}): agent "${agent.id}" failed: ${text}`, { cause: error });
    }
    const duration_ms = Math.round((performance.now() - started) * 100) / 100;
    if (!Array.isArray((input as { messages?: unknown }).messages)) {
      this.history.push(messages.at(-1)!, { role: 'assistant', content: reply.text ?? '' });
    }
    const result = resultOf(reply, query, duration_ms);
    this.lastReply = reply;
    this.lastResult = result;
    this.turns.push({
      query,
      duration_ms,
      ...(reply.verdict?.grade ? { grade: reply.verdict.grade } : {}),
      metrics: { ...reply.verdict?.metrics },
    });
    return result;
  }

  private request(input: RunInput): { messages: Message[]; extra: Record<string, unknown>; query: string } {
    if (typeof input === 'string')
      return { messages: [...this.history, { role: 'user', content: input }], extra: { query: input }, query: input };
    if (!input || typeof input !== 'object' || Array.isArray(input)) {
      throw new TypeError(
        `ctx.run needs a query string or an object like { query, sessionId }, got ${input === null ? 'null' : typeof input}`,
      );
    }
    if (Array.isArray(input.messages)) {
      const messages = input.messages as Message[];
      const last = [...messages].reverse().find((m) => m.role === 'user');
      const query =
        typeof input.query === 'string' ? input.query : typeof last?.content === 'string' ? last.content : '';
      const { messages: _messages, ...extra } = input;
      return { messages, extra: { ...extra, query }, query };
    }
    if (typeof input.query !== 'string')
      throw new TypeError('ctx.run({ … }) needs a query string (or a messages array)');
    return {
      messages: [...this.history, { role: 'user', content: input.query }],
      extra: { ...input },
      query: input.query,
    };
  }
}

/**
 * What the test sees. An adapter's evaluation is returned as its `evaluate` built it (agentest-kit's
 * StandardResult); another agent's reply becomes `{ query, elapsed_ms, error: null, content, text,
 * toolCalls, raw }`, with no invented `structure_ok` or `intent_matched`.
 */
function resultOf(reply: AgentReply, query: string, duration_ms: number): RunResult {
  const content = reply.content;
  if (reply.verdict && content && typeof content === 'object' && !Array.isArray(content))
    return plainData(content) as RunResult;
  return plainData({
    query,
    elapsed_ms: duration_ms,
    error: null,
    content,
    text: reply.text,
    ...(reply.toolCalls ? { toolCalls: reply.toolCalls } : {}),
    ...(reply.usage ? { usage: reply.usage } : {}),
    raw: reply.raw ?? content,
  }) as RunResult;
}

/** A copy that crosses into the sandbox: functions and other uncloneable values are dropped. */
function plainData(value: unknown): unknown {
  try {
    return structuredClone(value);
  } catch {
    return JSON.parse(
      JSON.stringify(value, (_key, v) =>
        typeof v === 'function' || typeof v === 'symbol' ? undefined : typeof v === 'bigint' ? String(v) : v,
      ) ?? 'null',
    );
  }
}
