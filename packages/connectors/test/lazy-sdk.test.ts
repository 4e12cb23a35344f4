import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AgentReply } from '@agentest/kernel';
import { ConnectorError } from '../src/connector-error.js';
import { LlmClient } from '../src/llm-client.js';
import { DEFAULT_RETRY_POLICY } from '../src/retry.js';
import type { LlmSettings } from '../src/settings.js';
import type { ChatRequest } from '../src/types.js';

class FakeApiError extends Error {
  constructor(readonly status: number) {
    super(`status ${status}`);
  }
}
const fakeSdk = {
  APIError: FakeApiError,
  APIConnectionError: class extends Error {},
  APIConnectionTimeoutError: class extends Error {},
};

/** A client over a fake SDK that counts how often it is imported and built. */
class CountingClient extends LlmClient<typeof fakeSdk, { reply: () => string }> {
  readonly type = 'openai';
  imports = 0;
  clients = 0;

  constructor(private readonly answer: () => string) {
    super({
      id: 'lazy',
      type: 'openai',
      host: 'http://127.0.0.1:1',
      model: 'm',
      body: {},
      headers: {},
      stream: false,
      concurrency: 8,
      retry: { ...DEFAULT_RETRY_POLICY, retries: 0 },
      maxReplyBytes: 1024,
    } as LlmSettings);
  }

  protected async importSdk() {
    this.imports++;
    await new Promise((resolve) => setImmediate(resolve));
    return fakeSdk;
  }

  protected createClient() {
    this.clients++;
    return { reply: this.answer };
  }

  protected wireBody(request: ChatRequest): Record<string, unknown> {
    return { messages: request.messages };
  }

  protected attempt(_body: Record<string, unknown>, _stream: boolean, signal: AbortSignal): Promise<AgentReply> {
    return this.withClient(
      'http://127.0.0.1:1/chat',
      signal,
      async (client) => ({ content: client.reply() }) as AgentReply,
    );
  }

  protected async replayed(): Promise<AgentReply> {
    throw new Error('no cassette in this test');
  }
}

const request: ChatRequest = { messages: [{ role: 'user', content: 'hi' }] };

describe('the SDK, loaded by the shared client base', () => {
  it('is not imported before the first call, then imported and built once for every call, concurrent ones too', async () => {
    const client = new CountingClient(() => 'hello');
    assert.equal(client.imports, 0, 'creating a client imports nothing');
    const replies = await Promise.all([1, 2, 3].map(() => client.chat(request, new AbortController().signal)));
    await client.chat(request, new AbortController().signal);
    assert.deepEqual(
      replies.map((r) => r.content),
      ['hello', 'hello', 'hello'],
    );
    assert.equal(client.imports, 1);
    assert.equal(client.clients, 1);
  });

  it("reads what a request throws through the SDK's error classes", async () => {
    const client = new CountingClient(() => {
      throw new FakeApiError(400);
    });
    await assert.rejects(client.chat(request, new AbortController().signal), (error: unknown) => {
      assert.ok(error instanceof ConnectorError, 'a ConnectorError');
      assert.equal(error.status, 400);
      return true;
    });
  });
});
