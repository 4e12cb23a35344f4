import type { AgentReply } from '@agentest/kernel';
import { callModel, type Recorded, type Recorder } from '@agentest/cassettes';
import { toConnectorError, type SdkErrorClasses } from './classify-error.js';
import { ConnectorError } from './connector-error.js';
import { log, redactSecret } from './http-log.js';
import { callFetchOptions, type CallFetchOptions } from './node-http-fetch.js';
import { withRetries } from './retry.js';
import { connectorSemaphore, type Semaphore } from './semaphore.js';
import type { LlmSettings } from './settings.js';
import type { ChatClient, ChatRequest } from './types.js';

/**
 * What the OpenAI and Anthropic clients share: the SDK, imported on the first call so that runs
 * without this connector never load it; the per-connector concurrency limit; the retry loop (the
 * SDKs' own retries are off, so `trace.retries` counts every retry); abort handling, the reading of
 * the SDK's errors, key redaction, and the cassette boundary: the wire body is the request a
 * cassette keys and stores, the wire reply (whole, or chunk by chunk) what it replays. Subclasses
 * build the body, make one attempt and read a reply; they say how to import their SDK and build its
 * client.
 */
export abstract class LlmClient<Sdk extends SdkErrorClasses = SdkErrorClasses, Client = unknown> implements ChatClient {
  abstract readonly type: 'openai' | 'anthropic';
  private readonly semaphore: Semaphore;
  private sdk?: Promise<{ module: Sdk; client: Client }>;
  private built?: { module: Sdk; client: Client };

  constructor(protected readonly settings: LlmSettings) {
    this.semaphore = connectorSemaphore(settings.id, settings.concurrency);
  }

  get id(): string {
    return this.settings.id;
  }

  get model(): string {
    return this.settings.model;
  }

  /** The request body as the API receives it. */
  /** Imports the SDK package (a dynamic `import()`, so that loading it waits for the first call). */
  protected abstract importSdk(): Promise<Sdk>;

  /** Builds the SDK's client from the connector's settings; called once, after the import. */
  protected abstract createClient(sdk: Sdk): Client;

  /**
   * Makes one request through the SDK's client, importing and building it on the first call (every
   * later call, concurrent ones included, shares that one client). `request` passes `fetchOptions`
   * on to the SDK: they carry `signal` to the connector's fetch (see `CALL_SIGNAL`). What the request
   * throws becomes a ConnectorError that says whether another attempt may help, unless the caller
   * aborted it.
   */
  protected async withClient<T>(
    url: string,
    signal: AbortSignal,
    request: (client: Client, fetchOptions: CallFetchOptions) => Promise<T>,
  ): Promise<T> {
    // Once built, the client is taken as it is: no turn of the microtask queue per call for it.
    this.sdk ??= this.importSdk().then((module) => (this.built = { module, client: this.createClient(module) }));
    const { module, client } = this.built ?? (await this.sdk);
    try {
      return await request(client, callFetchOptions(signal));
    } catch (error) {
      if (signal.aborted) throw error;
      throw toConnectorError(error, module, url, this.settings.timeoutMs);
    }
  }

  protected abstract wireBody(request: ChatRequest, stream: boolean): Record<string, unknown>;

  /** One attempt with that body; its wire reply goes through `recorder`. Throws a ConnectorError when it can. */
  protected abstract attempt(
    body: Record<string, unknown>,
    stream: boolean,
    signal: AbortSignal,
    recorder: Recorder,
  ): Promise<AgentReply>;

  /** The reply from a recorded wire reply, read as `attempt` reads a live one. */
  protected abstract replayed(recorded: Recorded, pace: boolean): Promise<AgentReply>;

  async chat(request: ChatRequest, signal: AbortSignal): Promise<AgentReply> {
    const stream =
      request.stream ?? (typeof request.options?.stream === 'boolean' ? request.options.stream : this.settings.stream);
    const body = this.wireBody(request, stream);
    return callModel(
      {
        connector: this.id,
        type: this.type,
        model: String(body.model),
        ...(request.role ? { role: request.role } : {}),
        body,
        secrets: [this.settings.key],
      },
      {
        live: (recorder) => this.live(body, stream, signal, recorder),
        replay: (recorded, pace) => this.replayed(recorded, pace),
      },
      signal,
    );
  }

  private async live(
    body: Record<string, unknown>,
    stream: boolean,
    signal: AbortSignal,
    recorder: Recorder,
  ): Promise<AgentReply> {
    try {
      const { value, retries } = await withRetries(
        () => this.semaphore.use(() => this.attempt(body, stream, signal, recorder), signal),
        this.settings.retry,
        signal,
        `${this.type} connector "${this.id}"`,
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

/** Request options without the keys the client sets itself (and the call's role, which is not sent). */
export function passThrough(options: Record<string, unknown> | undefined): Record<string, unknown> {
  const { stream: _stream, model: _model, messages: _messages, ...rest } = options ?? {};
  return rest;
}
