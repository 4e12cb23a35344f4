import { join } from 'node:path';
import type {
  Agent,
  AgentCallOptions,
  AgentReply,
  Message,
  MessageToolCall,
  TestContext,
  ToolCall,
} from '@agentest/kernel';
import type { AssistantDefinition } from './assistant-definition.js';
import type { ToolSet } from './assistant-tools.js';
import { caseClock } from '@agentest/cassettes';
import { buildMessages, choosePrompts, contextVariables, globalPromptsDisabled } from './build-messages.js';
import { completionStep, type CompletionStep } from './completion-step.js';
import {
  fallbackConnector,
  noConnector,
  resolveConnector,
  ROLE_PREFIX,
  type ConnectorChoice,
} from './connector-choice.js';
import {
  isEmptyData,
  readCreateResponse,
  readNextResponse,
  type CreateResponse,
  type Delegate,
} from './hook-responses.js';
import { HookError, type HookOutcome, type HookRunner } from './hook-runner.js';
import { PACKAGE_FILE } from './locate.js';
import { DEFAULT_MAX_TURNS, type ServerUse } from './mcp-config.js';
import type { ToolBackends } from './tool-runner.js';
import type { YaoApp } from './yao-app.js';

/** Delegation deeper than this is a loop between assistants, reported instead of recursing forever. */
const MAX_DELEGATION_DEPTH = 8;

export interface AssistantServices {
  app: YaoApp;
  hooks: HookRunner;
  /** What runs behind the tools the model calls. */
  backends: ToolBackends;
  /** The tools of a Create hook's `mcp_servers`, for this assistant. */
  offerTools(uses: ServerUse[], writer: string): Promise<ToolSet>;
  /** Another assistant of the same app, for `delegate`. */
  assistant(id: string): Promise<AssistantAgent>;
}

/**
 * A Yao assistant as an agentest Agent. One call runs Yao's pipeline: Create hook → final messages →
 * LLM (only when the assistant has prompts or MCP servers) → its tool calls (and, without hooks, the
 * automatic tool loop) → Next hook. The output is the Next hook's `data` when it
 * is non-empty, else the completion's content, else null.
 */
export class AssistantAgent implements Agent {
  readonly id: string;
  readonly path: string;
  readonly connector?: string;
  /** The connector a call uses unless its case or Create hook names another; see `chooseDefault`. */
  private readonly defaultChoice?: ConnectorChoice;

  constructor(
    private readonly def: AssistantDefinition,
    private readonly services: AssistantServices,
    /** `-c`: wins over the case's `options.connector` and package.yao, not over the Create hook. */
    private readonly connectorOverride?: string,
    /** The tools of package.yao's `mcp.servers`, offered on every call unless a Create hook picks others. */
    private readonly tools?: ToolSet,
  ) {
    this.id = def.id;
    this.path = def.dir;
    this.defaultChoice = this.chooseDefault();
    if (this.defaultChoice) this.connector = this.defaultChoice.id;
  }

  /** The flag or file that named the default connector, for errors building its client. */
  get connectorBlame(): string | undefined {
    return this.defaultChoice?.blame;
  }

  /** True when a call reaches the LLM: the assistant has prompts, presets or MCP servers (Yao's rule). */
  get usesLlm(): boolean {
    return this.def.prompts !== undefined || this.def.presets.size > 0 || this.def.mcp !== undefined;
  }

  run(messages: Message[], ctx: TestContext, signal: AbortSignal, call?: AgentCallOptions): Promise<AgentReply> {
    return this.call(messages, ctx, signal, call?.options ?? {}, 0, call?.llm);
  }

  /**
   * One call. What it recorded before something threw (hook logs, the Create hook's answer, tool
   * calls) goes with the error as its `trace`, which the agent executor keeps on the case.
   */
  async call(
    input: Message[],
    testContext: TestContext,
    signal: AbortSignal,
    caseOptions: Record<string, unknown>,
    depth: number,
    /** Model parameters the caller insists on (a judge's temperature and seed); they win over the assistant's. */
    llm?: Record<string, unknown>,
  ): Promise<AgentReply> {
    const trace: Record<string, unknown> = { assistant: this.def.id };
    try {
      return await this.pipeline(input, testContext, signal, caseOptions, depth, trace, llm);
    } catch (error) {
      if (error && typeof error === 'object' && !('trace' in error)) Object.assign(error, { trace });
      throw error;
    }
  }

  private async pipeline(
    input: Message[],
    testContext: TestContext,
    signal: AbortSignal,
    caseOptions: Record<string, unknown>,
    depth: number,
    trace: Record<string, unknown>,
    llm: Record<string, unknown> | undefined,
  ): Promise<AgentReply> {
    const { def, services } = this;
    const metadata: Record<string, unknown> = { ...testContext.metadata, ...record(caseOptions.metadata) };
    // Yao's hook ctx always carries `theme` and `route` (empty unless a request sets them).
    const ctx: TestContext & { theme: string; route: string } = {
      theme: '',
      route: '',
      ...testContext,
      assistant_id: def.id,
      metadata,
    };
    const caseConnector = str(caseOptions.connector);
    const connectorBeforeHook = this.connectorOverride ?? caseConnector ?? this.defaultChoice?.id;
    const hookOptions = {
      ...caseOptions,
      ...(connectorBeforeHook ? { connector: connectorBeforeHook } : {}),
      metadata,
    };

    let create: CreateResponse | undefined;
    if (def.hookFile) {
      const outcome = await this.hook('Create', [ctx, input, hookOptions], signal, trace);
      create = outcome.ran ? readCreateResponse(outcome.value, def.hookFile) : undefined;
      if (outcome.ran) trace.create = outcome.value ?? null;
      if (create?.metadata) Object.assign(metadata, create.metadata);
      if (create?.delegate) return this.delegate(create.delegate, input, ctx, signal, depth, trace);
    }

    const conversation = create?.messages?.length ? create.messages : input;
    const choice = choosePrompts(def, create, metadata);
    if (choice.preset) trace.prompt_preset = choice.preset;
    let finalMessages = conversation;
    let step: CompletionStep | undefined;
    if (choice.prompts || def.mcp) {
      const global = globalPromptsDisabled(def, create, caseOptions, metadata)
        ? undefined
        : await services.app.globalPrompts();
      // With cassettes, `$SYS.DATE` is the time the case was recorded, so a replay matches on any day.
      const vars = { env: services.app.env, ctx: contextVariables(def, ctx, create), now: await caseClock(signal) };
      const tools = create?.mcp_servers
        ? await services.offerTools(create.mcp_servers, `the Create hook of ${def.hookFile}`)
        : this.tools;
      finalMessages = buildMessages({
        global,
        prompts: choice.prompts ?? [],
        ...(tools?.samples ? { samples: tools.samples } : {}),
        conversation,
        vars,
      });
      const connector = this.chooseForCall(create?.connector, caseConnector);
      const client = await services.app.client(connector.id, connector.blame);
      trace.connector = connector.id;
      trace.connector_from = connector.from;
      try {
        step = await completionStep({
          client,
          messages: finalMessages,
          options: { ...def.options, ...create?.llmOptions, ...llm },
          ...(tools ? { tools } : {}),
          backends: services.backends,
          // Yao runs the loop only when the assistant has no hook script at all.
          loop:
            !def.hookFile && def.mcp?.toolLoop !== false ? { maxTurns: def.mcp?.maxTurns ?? DEFAULT_MAX_TURNS } : false,
          signal,
        });
      } catch (error) {
        const partial = (error as { step?: CompletionStep }).step;
        if (partial) Object.assign(trace, stepTrace(partial));
        throw error;
      }
      Object.assign(trace, stepTrace(step));
    }
    const completion = step?.completion;

    let data: unknown;
    if (def.hookFile) {
      const payload = {
        messages: finalMessages,
        completion: completion ? completionPayload(completion) : null,
        tools: step?.tools.map((t) => t.payload) ?? [],
        error: null,
      };
      const outcome = await this.hook('Next', [ctx, payload, hookOptions], signal, trace);
      const next = outcome.ran ? readNextResponse(outcome.value, def.hookFile) : undefined;
      if (outcome.ran) trace.next = outcome.value ?? null;
      if (next?.delegate) return this.delegate(next.delegate, conversation, ctx, signal, depth, trace);
      data = next?.data;
    }

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

  /** Calls a hook; its logs go to the trace whether it returns or throws. */
  private async hook(
    fn: 'Create' | 'Next',
    args: unknown[],
    signal: AbortSignal,
    trace: Record<string, unknown>,
  ): Promise<HookOutcome> {
    try {
      const outcome = await this.services.hooks.call(this.def.hookFile!, fn, args, signal);
      keepLogs(trace, outcome.logs);
      return outcome;
    } catch (error) {
      if (error instanceof HookError) keepLogs(trace, error.logs);
      throw error;
    }
  }

  /**
   * Yao's chain for what does not change between cases: `-c`, else package.yao's `connector` (a
   * `use::<role>` through agent.yml), else agent.yml's `system.default`, else the first capable
   * connector. Resolved once; an id nobody defines is a configuration error naming who chose it.
   * An assistant that never calls the LLM gets only what it names, and never fails over it.
   */
  private chooseDefault(): ConnectorChoice | undefined {
    const {
      def,
      services: { app },
    } = this;
    const packageFile = join(def.dir, PACKAGE_FILE);
    if (!this.usesLlm) {
      if (this.connectorOverride)
        return this.connectorOverride.startsWith(ROLE_PREFIX)
          ? undefined
          : { id: this.connectorOverride, from: '-c', blame: '-c' };
      return def.connector && !def.connector.startsWith(ROLE_PREFIX)
        ? { id: def.connector, from: 'package.yao', blame: packageFile }
        : undefined;
    }
    const choice = this.connectorOverride
      ? resolveConnector(this.connectorOverride, '-c', '-c', app)
      : def.connector
        ? resolveConnector(def.connector, 'package.yao', packageFile, app)
        : fallbackConnector(app);
    if (choice && !app.connectors.get(choice.id)) throw app.connectors.notFound(choice.id, choice.blame);
    return choice;
  }

  /** One call's connector: the Create hook's, else `-c`, else the case's, else the default above. */
  private chooseForCall(fromHook: string | undefined, fromCase: string | undefined): ConnectorChoice {
    const {
      def,
      services: { app },
    } = this;
    const choice = fromHook
      ? resolveConnector(fromHook, 'Create hook', `the Create hook of "${def.id}"`, app)
      : !this.connectorOverride && fromCase
        ? resolveConnector(fromCase, 'options.connector', `the case's options.connector`, app)
        : this.defaultChoice;
    if (!choice) throw noConnector(def.id, join(def.dir, PACKAGE_FILE), app.settings);
    return choice;
  }

  /** Hands the conversation to another assistant; its reply is this call's reply, with both traces. */
  private async delegate(
    delegate: Delegate,
    conversation: Message[],
    ctx: TestContext,
    signal: AbortSignal,
    depth: number,
    trace: Record<string, unknown>,
  ): Promise<AgentReply> {
    if (depth >= MAX_DELEGATION_DEPTH) {
      throw new Error(
        `delegation from "${this.id}" to "${delegate.agent_id}" is more than ${MAX_DELEGATION_DEPTH} levels deep; the assistants delegate in a loop`,
      );
    }
    const target = await this.services.assistant(delegate.agent_id);
    const reply = await target.call(
      delegate.messages?.length ? delegate.messages : conversation,
      ctx,
      signal,
      delegate.options ?? {},
      depth + 1,
    );
    return { ...reply, trace: { ...trace, delegated_to: target.id, delegate: reply.trace } };
  }
}

/** What the hooks printed (`console.log`), kept in the trace for reports. */
function keepLogs(trace: Record<string, unknown>, logs: string[]): void {
  if (logs.length) trace.logs = [...((trace.logs as string[] | undefined) ?? []), ...logs];
}

/** The LLM step in the trace: the last completion, and the turns and tool calls when tools ran. */
function stepTrace(step: CompletionStep): Record<string, unknown> {
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
function completionPayload(reply: AgentReply): Record<string, unknown> {
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

function display(content: unknown): string {
  if (content === null || content === undefined) return '';
  return typeof content === 'string' ? content : JSON.stringify(content);
}

function record(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value ? value : undefined;
}
