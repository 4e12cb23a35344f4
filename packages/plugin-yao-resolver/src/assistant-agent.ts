import { join } from 'node:path';
import type { Agent, AgentCallOptions, AgentReply, Message, TestContext } from '@agentest/kernel';
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
import { completionPayload, keepLogs, replyOf, stepTrace } from './call-result.js';
import {
  readCreateResponse,
  readNextResponse,
  type CreateResponse,
  type Delegate,
  type NextResponse,
} from './hook-responses.js';
import { HookError, type HookOutcome, type HookRunner } from './hook-runner.js';
import { PACKAGE_FILE } from './locate.js';
import { DEFAULT_MAX_TURNS, type ServerUse } from './mcp-config.js';
import type { ToolBackends } from './tool-runner.js';
import type { YaoApp } from './yao-app.js';

/** Delegation deeper than this is a loop between assistants, reported instead of recursing forever. */
const MAX_DELEGATION_DEPTH = 8;

/** One call as it goes through the pipeline; `metadata` is shared with `ctx` and grows with the Create hook's. */
interface CallState {
  input: Message[];
  ctx: TestContext & { theme: string; route: string };
  metadata: Record<string, unknown>;
  caseOptions: Record<string, unknown>;
  caseConnector?: string;
  hookOptions: Record<string, unknown>;
  signal: AbortSignal;
  trace: Record<string, unknown>;
  /** Model parameters the caller insists on; they win over the assistant's and the Create hook's. */
  llm: Record<string, unknown> | undefined;
}

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
    const call = this.callState(input, testContext, signal, caseOptions, trace, llm);
    const create = await this.runCreate(call);
    if (create?.delegate) return this.delegate(create.delegate, input, call.ctx, signal, depth, trace);
    const conversation = create?.messages?.length ? create.messages : input;
    const { messages, step } = await this.complete(call, create, conversation);
    const next = await this.runNext(call, messages, step);
    if (next?.delegate) return this.delegate(next.delegate, conversation, call.ctx, signal, depth, trace);
    return replyOf(next?.data, step, trace);
  }

  /** The hooks' `ctx` and options for one call, and what the call records as it goes. */
  private callState(
    input: Message[],
    testContext: TestContext,
    signal: AbortSignal,
    caseOptions: Record<string, unknown>,
    trace: Record<string, unknown>,
    llm: Record<string, unknown> | undefined,
  ): CallState {
    const metadata: Record<string, unknown> = { ...testContext.metadata, ...record(caseOptions.metadata) };
    // Yao's hook ctx always carries `theme` and `route` (empty unless a request sets them).
    const ctx = { theme: '', route: '', ...testContext, assistant_id: this.def.id, metadata };
    const caseConnector = str(caseOptions.connector);
    const connectorBeforeHook = this.connectorOverride ?? caseConnector ?? this.defaultChoice?.id;
    const hookOptions = {
      ...caseOptions,
      ...(connectorBeforeHook ? { connector: connectorBeforeHook } : {}),
      metadata,
    };
    return { input, ctx, metadata, caseOptions, caseConnector, hookOptions, signal, trace, llm };
  }

  /** The Create hook, when the assistant has hooks; its metadata joins the call's. */
  private async runCreate(call: CallState): Promise<CreateResponse | undefined> {
    if (!this.def.hookFile) return undefined;
    const outcome = await this.hook('Create', [call.ctx, call.input, call.hookOptions], call.signal, call.trace);
    if (!outcome.ran) return undefined;
    const create = readCreateResponse(outcome.value, this.def.hookFile);
    call.trace.create = outcome.value ?? null;
    if (create?.metadata) Object.assign(call.metadata, create.metadata);
    return create;
  }

  /** The final messages and, when the assistant has prompts or MCP servers, the LLM step on them. */
  private async complete(
    call: CallState,
    create: CreateResponse | undefined,
    conversation: Message[],
  ): Promise<{ messages: Message[]; step?: CompletionStep }> {
    const { def, services } = this;
    const choice = choosePrompts(def, create, call.metadata);
    if (choice.preset) call.trace.prompt_preset = choice.preset;
    if (!choice.prompts && !def.mcp) return { messages: conversation };
    const global = globalPromptsDisabled(def, create, call.caseOptions, call.metadata)
      ? undefined
      : await services.app.globalPrompts();
    // With cassettes, `$SYS.DATE` is the time the case was recorded, so a replay matches on any day.
    const vars = {
      env: services.app.env,
      ctx: contextVariables(def, call.ctx, create),
      now: await caseClock(call.signal),
    };
    const tools = create?.mcp_servers
      ? await services.offerTools(create.mcp_servers, `the Create hook of ${def.hookFile}`)
      : this.tools;
    const messages = buildMessages({
      global,
      prompts: choice.prompts ?? [],
      ...(tools?.samples ? { samples: tools.samples } : {}),
      conversation,
      vars,
    });
    return { messages, step: await this.callLlm(call, create, messages, tools) };
  }

  /** One LLM step (the tool loop included when Yao runs it); what it did goes into the trace, also on failure. */
  private async callLlm(
    call: CallState,
    create: CreateResponse | undefined,
    messages: Message[],
    tools: ToolSet | undefined,
  ): Promise<CompletionStep> {
    const { def, services } = this;
    const connector = this.chooseForCall(create?.connector, call.caseConnector);
    const client = await services.app.client(connector.id, connector.blame);
    call.trace.connector = connector.id;
    call.trace.connector_from = connector.from;
    try {
      const step = await completionStep({
        client,
        messages,
        options: { ...def.options, ...create?.llmOptions, ...call.llm },
        ...(tools ? { tools } : {}),
        backends: services.backends,
        // Yao runs the loop only when the assistant has no hook script at all.
        loop:
          !def.hookFile && def.mcp?.toolLoop !== false ? { maxTurns: def.mcp?.maxTurns ?? DEFAULT_MAX_TURNS } : false,
        signal: call.signal,
      });
      Object.assign(call.trace, stepTrace(step));
      return step;
    } catch (error) {
      const partial = (error as { step?: CompletionStep }).step;
      if (partial) Object.assign(call.trace, stepTrace(partial));
      throw error;
    }
  }

  /** The Next hook, when the assistant has hooks: it sees the messages, the completion and the tool results. */
  private async runNext(
    call: CallState,
    messages: Message[],
    step: CompletionStep | undefined,
  ): Promise<NextResponse | undefined> {
    if (!this.def.hookFile) return undefined;
    const completion = step?.completion;
    const payload = {
      messages,
      completion: completion ? completionPayload(completion) : null,
      tools: step?.tools.map((t) => t.payload) ?? [],
      error: null,
    };
    const outcome = await this.hook('Next', [call.ctx, payload, call.hookOptions], call.signal, call.trace);
    if (!outcome.ran) return undefined;
    const next = readNextResponse(outcome.value, this.def.hookFile);
    call.trace.next = outcome.value ?? null;
    return next;
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

function record(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value ? value : undefined;
}
