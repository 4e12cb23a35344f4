import type { AgentReply } from '@agentest/kernel';
import { ConnectorError } from './connector-error.js';
import { log, redactSecret } from './http-log.js';
import { withRetries } from './retry.js';
import { connectorSemaphore, type Semaphore } from './semaphore.js';
import type { LlmSettings } from './settings.js';
import type { ChatClient, ChatRequest } from './types.js';

/**
 * What the OpenAI and Anthropic clients share: the per-connector concurrency limit, the retry loop
 * (the SDKs' own retries are off, so `trace.retries` counts every retry), abort handling and key
 * redaction. Subclasses make one attempt and say how their SDK's errors read.
 */
export abstract class LlmClient implements ChatClient {
  abstract readonly type: 'openai' | 'anthropic';
  private readonly semaphore: Semaphore;

  constructor(protected readonly settings: LlmSettings) {
    this.semaphore = connectorSemaphore(settings.id, settings.concurrency);
  }

  get id(): string {
    return this.settings.id;
  }

  get model(): string {
    return this.settings.model;
  }

  /** One attempt; throws whatever went wrong, already as a ConnectorError when it can. */
  protected abstract attempt(request: ChatRequest, stream: boolean, signal: AbortSignal): Promise<AgentReply>;

  async chat(request: ChatRequest, signal: AbortSignal): Promise<AgentReply> {
    const stream =
      request.stream ?? (typeof request.options?.stream === 'boolean' ? request.options.stream : this.settings.stream);
    const label = `${this.type} connector "${this.id}"`;
    try {
      const { value, retries } = await withRetries(
        () => this.semaphore.use(() => this.attempt(request, stream, signal), signal),
        this.settings.retry,
        signal,
        label,
        (error, waitMs, retry) =>
          log(
            '%s: retry %d in %dms after: %s',
            this.id,
            retry,
            Math.round(waitMs),
            redactSecret(error.message, this.settings.key),
          ),
      );
      return { ...value, trace: { ...value.trace, retries } };
    } catch (error) {
      if (error instanceof ConnectorError) error.message = redactSecret(error.message, this.settings.key);
      throw error;
    }
  }
}

/** Request options without the keys the client sets itself. */
export function passThrough(options: Record<string, unknown> | undefined): Record<string, unknown> {
  const { stream: _stream, model: _model, messages: _messages, ...rest } = options ?? {};
  return rest;
}
