import type { AgentReply } from '@agentest/kernel';
import { toConnectorError, type SdkErrorClasses } from './classify-error.js';
import { ConnectorError } from './connector-error.js';
import { log, redactSecret } from './http-log.js';
import { withRetries } from './retry.js';
import { connectorSemaphore, type Semaphore } from './semaphore.js';
import type { LlmSettings } from './settings.js';
import type { ChatClient, ChatRequest } from './types.js';

/**
 * What the OpenAI and Anthropic clients share: the SDK, imported on the first call so that runs
 * without this connector never load it; the per-connector concurrency limit; the retry loop (the
 * SDKs' own retries are off, so `trace.retries` counts every retry); abort handling, the reading of
 * the SDK's errors, and key redaction. Subclasses say how to build their SDK's client and make one attempt.
 */
export abstract class LlmClient<Sdk extends SdkErrorClasses = SdkErrorClasses, Client = unknown> implements ChatClient {
  abstract readonly type: 'openai' | 'anthropic';
  private readonly semaphore: Semaphore;
  private sdk?: Promise<{ module: Sdk; client: Client }>;

  constructor(protected readonly settings: LlmSettings) {
    this.semaphore = connectorSemaphore(settings.id, settings.concurrency);
  }

  get id(): string {
    return this.settings.id;
  }

  get model(): string {
    return this.settings.model;
  }

  /** Imports the SDK package (a dynamic `import()`, so that loading it waits for the first call). */
  protected abstract importSdk(): Promise<Sdk>;

  /** Builds the SDK's client from the connector's settings; called once, after the import. */
  protected abstract createClient(sdk: Sdk): Client;

  /**
   * Makes one request through the SDK's client, importing and building it on the first call (every
   * later call, concurrent ones included, shares that one client). What the request throws becomes a
   * ConnectorError that says whether another attempt may help, unless the caller aborted it.
   */
  protected async withClient<T>(url: string, signal: AbortSignal, request: (client: Client) => Promise<T>): Promise<T> {
    this.sdk ??= this.importSdk().then((module) => ({ module, client: this.createClient(module) }));
    const { module, client } = await this.sdk;
    try {
      return await request(client);
    } catch (error) {
      if (signal.aborted) throw error;
      throw toConnectorError(error, module, url, this.settings.timeoutMs);
    }
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
