import type { AgentReply } from '@agentest/kernel';
import { replayChunks, type Recorded, type Recorder } from '@agentest/cassettes';
import type OpenAI from 'openai';
import { buildApiUrl } from './env.js';
import { connectorFetch } from './http-log.js';
import { LlmClient, passThrough } from './llm-client.js';
import { openaiReply, openaiStreamReply } from './openai-reply.js';
import { reuseRequestHeaders } from './sdk-headers.js';
import type { LlmSettings } from './settings.js';
import type { ChatRequest } from './types.js';

type OpenAIModule = typeof import('openai');

/**
 * Any OpenAI-compatible server (OpenAI, DeepSeek, Ollama, vLLM, llama.cpp) through the official SDK,
 * imported on the first call so runs without this connector never load it.
 */
export class OpenAIChatClient extends LlmClient<OpenAIModule, OpenAI> {
  readonly type = 'openai';
  private readonly baseURL: string;

  constructor(settings: LlmSettings) {
    super(settings);
    this.baseURL = buildApiUrl(settings.host, '');
  }

  private get url(): string {
    return `${this.baseURL.replace(/\/$/, '')}/chat/completions`;
  }

  protected importSdk(): Promise<OpenAIModule> {
    return import('openai');
  }

  protected createClient(module: OpenAIModule): OpenAI {
    const { key, headers, timeoutMs } = this.settings;
    const client = new module.OpenAI({
      // The SDK insists on a key; without one the Authorization header is removed below.
      apiKey: key ?? 'no-key',
      baseURL: this.baseURL,
      organization: null,
      project: null,
      maxRetries: 0,
      ...(timeoutMs ? { timeout: timeoutMs } : {}),
      logLevel: 'off',
      fetch: connectorFetch(this.id, { secret: key, maxReplyBytes: this.settings.maxReplyBytes }),
      defaultHeaders: { ...headers, ...(key ? {} : { Authorization: null }) },
    });
    reuseRequestHeaders(client);
    return client;
  }

  protected wireBody(request: ChatRequest, stream: boolean): Record<string, unknown> {
    const options = passThrough(request.options);
    return {
      ...this.settings.body,
      ...options,
      model: request.model ?? this.settings.model,
      messages: request.messages,
      ...(stream ? { stream: true, stream_options: options.stream_options ?? { include_usage: true } } : {}),
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
      const response = await client.chat.completions.create(
        body as unknown as OpenAI.ChatCompletionCreateParams,
        {
          fetchOptions,
        } as Parameters<typeof client.chat.completions.create>[1],
      );
      return stream
        ? await openaiStreamReply(recorder.stream(response as AsyncIterable<unknown>), this.url)
        : openaiReply(recorder.body(response), this.url);
    });
  }

  protected async replayed(recorded: Recorded, pace: boolean): Promise<AgentReply> {
    return recorded.chunks
      ? openaiStreamReply(replayChunks(recorded.chunks, pace), this.url)
      : openaiReply(recorded.reply, this.url);
  }
}
