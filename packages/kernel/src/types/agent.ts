import type { Message, ToolCall } from './message.js';
import type { TestContext } from './context.js';

/** What the kernel asks a `resolve` tap for: `-n id`, the input's path, or nothing (auto-detect). */
export interface AgentRef {
  /** Explicit id (`-n`), a config key, a built-in (`echo`, `mock`) or a Yao assistant id. */
  id?: string;
  /** Path hint for auto-detection (the input file, or the working directory in message mode). */
  path?: string;
  /** Connector override (`-c`). */
  connector?: string;
}

export interface TokenUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  total_tokens?: number;
}

/** What one agent call returns. `content` is what assertions see; `text` is its display form. */
export interface AgentReply {
  content: unknown;
  text: string;
  toolCalls?: ToolCall[];
  usage?: TokenUsage;
  /** Free-form data for the result's trace (model, reasoning, retries, …). */
  trace?: Record<string, unknown>;
  raw?: unknown;
  /**
   * Set by agents that grade their own reply (an agentest-kit adapter's `evaluate`): the executor
   * records this status, grade and metrics instead of treating the call as a plain success.
   */
  verdict?: AgentVerdict;
}

export interface AgentVerdict {
  status: 'passed' | 'failed';
  /** A finer grade for display, e.g. agentest-kit's PASS / PARTIAL / FAIL. */
  grade?: string;
  error?: string;
  metrics?: Record<string, number>;
  details?: Record<string, unknown>;
}

/** Per-call options: extra fields of the case (agentest-kit `ctx.run({query, sessionId})`), case options. */
export interface AgentCallOptions {
  options?: Record<string, unknown>;
  extra?: Record<string, unknown>;
  /** The case being run, for adapters that read every field of it. */
  testCase?: unknown;
  /**
   * Model request parameters that win over the agent's own for this call (a judge's temperature 0
   * and seed). Agents that call a model pass them on; others may ignore them.
   */
  llm?: Record<string, unknown>;
}

/** Anything agentest can test: adapters, Yao assistants and bare connectors all become this. */
export interface Agent {
  id: string;
  /** Connector id shown in reports, when the agent has one. */
  connector?: string;
  /** Where the agent is defined (a directory or config file), shown in reports. */
  path?: string;
  run(messages: Message[], ctx: TestContext, signal: AbortSignal, call?: AgentCallOptions): Promise<AgentReply>;
  close?(): Promise<void> | void;
}
