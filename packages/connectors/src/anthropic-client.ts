import type Anthropic from '@anthropic-ai/sdk';
import type { AgentReply } from '@agentest/kernel';
import { replayChunks, type Recorded, type Recorder } from '@agentest/cassettes';
import { buildApiUrl } from './env.js';
import { connectorFetch } from './http-log.js';
import { LlmClient, passThrough } from './llm-client.js';
import { anthropicReply, anthropicStreamReply } from './anthropic-reply.js';
import { toAnthropicMessages, toAnthropicParams } from './anthropic-request.js';
import type { LlmSettings } from './settings.js';
import type { ChatRequest } from './types.js';

type AnthropicModule = typeof import('@anthropic-ai/sdk');

/** The API requires `max_tokens`; this is used when neither the connector nor the call sets one. */
const DEFAULT_MAX_TOKENS = 4096;

/** Anthropic's messages API through the official SDK, imported on the first call. */
export class AnthropicChatClient extends LlmClient<AnthropicModule, Anthropic> {
  readonly type = 'anthropic';
  private readonly url: string;

  constructor(settings: LlmSettings) {
    super(settings);
    this.url = buildApiUrl(settings.host, '/messages');
  }

  protected importSdk(): Promise<AnthropicModule> {
    return import('@anthropic-ai/sdk');
  }

  protected createClient(module: AnthropicModule): Anthropic {
    const { key, headers, timeoutMs, host } = this.settings;
    // The SDK always requests `<baseURL>/v1/messages`. A host with a trailing `/` is verbatim under
    // Yao's rule, which the SDK cannot express, so that one URL is redirected in our fetch.
    const baseURL = host.replace(/\/+$/, '');
    const rewrite = host.endsWith('/') ? { from: `${baseURL}/v1/messages`, to: this.url } : undefined;
    return new module.Anthropic({
      // A key passed in code stops the SDK from reading ANTHROPIC_* variables or credential files.
      apiKey: key ?? 'no-key',
      baseURL,
      maxRetries: 0,
      ...(timeoutMs ? { timeout: timeoutMs } : {}),
      logLevel: 'off',
      fetch: connectorFetch(this.id, { rewrite, secret: key, maxReplyBytes: this.settings.maxReplyBytes }),
      defaultHeaders: { ...headers, ...(key ? {} : { 'x-api-key': null, authorization: null }) },
    });
  }

  protected wireBody(request: ChatRequest, stream: boolean): Record<string, unknown> {
    const { system, messages } = toAnthropicMessages(request.messages);
    return {
      max_tokens: DEFAULT_MAX_TOKENS,
      ...toAnthropicParams({ ...this.settings.body, ...passThrough(request.options) }),
      model: request.model ?? this.settings.model,
      messages,
      ...(system ? { system } : {}),
      stream,
    };
  }

  protected async attempt(
    body: Record<string, unknown>,
    stream: boolean,
    signal: AbortSignal,
    recorder: Recorder,
  ): Promise<AgentReply> {
    // The call's signal reaches the connector's fetch through `fetchOptions`, not the SDK (see CALL_SIGNAL).
    return this.withClient(this.url, signal, async (client, fetchOptions) => {
      const response = await client.messages.create(
        body as unknown as Anthropic.MessageCreateParams,
        {
          fetchOptions,
        } as Parameters<typeof client.messages.create>[1],
      );
      return stream
        ? await anthropicStreamReply(recorder.stream(response as AsyncIterable<unknown>), this.url)
        : anthropicReply(recorder.body(response), this.url);
    });
  }

  protected async replayed(recorded: Recorded, pace: boolean): Promise<AgentReply> {
    return recorded.chunks
      ? anthropicStreamReply(replayChunks(recorded.chunks, pace), this.url)
      : anthropicReply(recorded.reply, this.url);
  }
}
