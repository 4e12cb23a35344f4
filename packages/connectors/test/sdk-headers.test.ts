import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import OpenAI from 'openai';
import { createChatClient } from '../src/index.js';
import { nodeHttpFetch } from '../src/node-http-fetch.js';
import { reuseRequestHeaders } from '../src/sdk-headers.js';
import { never, openaiConfig, user, withFake } from './helpers.js';

type Build = (inputs: unknown) => Promise<Headers>;

/** Counts the SDK's own header building while `body` runs. */
async function countingBuilds<T>(body: (builds: () => number) => Promise<T>): Promise<T> {
  const proto = OpenAI.prototype as unknown as { buildHeaders: Build };
  const original = proto.buildHeaders;
  let count = 0;
  proto.buildHeaders = function (this: unknown, inputs: unknown) {
    count++;
    return original.call(this, inputs);
  };
  try {
    return await body(() => count);
  } finally {
    proto.buildHeaders = original;
  }
}

/** A stand-in for the SDK's client: its `buildHeaders` builds a new Headers per call, as the SDK's does. */
function fakeClient(extra: Record<string, unknown> = {}) {
  const client = {
    built: 0,
    async buildHeaders(inputs: { options: { timeout?: number } }): Promise<Headers> {
      client.built++;
      if (client.built === 1 && extra.failFirst) throw new Error('no key yet');
      return new Headers({ 'x-timeout': String(inputs.options.timeout ?? '') });
    },
    ...extra,
  };
  return client;
}

const post = (options: Record<string, unknown> = {}, retryCount = 0) => ({
  options,
  method: 'post',
  bodyHeaders: { 'content-type': 'application/json' },
  retryCount,
});

describe('SDK request headers built once per kind of request', () => {
  it("the openai connector's client builds them once and sends exactly what the SDK would", async () => {
    await withFake({ default: 'ok' }, async (llm) => {
      await countingBuilds(async (builds) => {
        const client = createChatClient('fake', openaiConfig(llm, { key: 'sk-abc', headers: { 'X-Team': 'qa' } }), {});
        for (let i = 0; i < 3; i++) await client.chat({ messages: user('hi') }, never());
        assert.equal(builds(), 1, 'three calls, one build');
        // The same request through a plain SDK client over the same fetch, headers built per call.
        const plain = new OpenAI({
          apiKey: 'sk-abc',
          baseURL: `${llm.url}/v1`,
          organization: null,
          project: null,
          maxRetries: 0,
          logLevel: 'off',
          fetch: nodeHttpFetch(),
          defaultHeaders: { 'X-Team': 'qa' },
        });
        await plain.chat.completions.create({ model: 'gpt-fake', messages: user('hi') as never });
        assert.equal(builds(), 2);
        const [first, second, third, reference] = llm.requests.map((r) => r.headers);
        assert.equal(first!.authorization, 'Bearer sk-abc');
        assert.equal(first!['x-team'], 'qa');
        for (const sent of [first, second, third]) assert.deepEqual(sent, reference);
      });
    });
  });

  it('builds again for another method, retry count, timeout or content type, and keeps each', async () => {
    const client = fakeClient();
    reuseRequestHeaders(client);
    const first = await client.buildHeaders(post());
    assert.equal(await client.buildHeaders(post()), first);
    await client.buildHeaders(post({}, 1));
    await client.buildHeaders(post({ timeout: 5000 }));
    await client.buildHeaders({ ...post(), method: 'get' });
    await client.buildHeaders({ ...post(), bodyHeaders: { 'content-type': 'text/plain' } });
    assert.equal(client.built, 5);
    assert.equal((await client.buildHeaders(post({ timeout: 5000 }))).get('x-timeout'), '5000');
    assert.equal(client.built, 5);
  });

  it("never reuses a call's own headers or idempotency key, nor a failed build", async () => {
    const client = fakeClient({ failFirst: true });
    reuseRequestHeaders(client);
    await assert.rejects(client.buildHeaders(post()), /no key yet/);
    const headers = await client.buildHeaders(post());
    assert.equal(client.built, 2);
    assert.notEqual(await client.buildHeaders(post({ headers: { 'x-call': '1' } })), headers);
    assert.notEqual(await client.buildHeaders(post({ idempotencyKey: 'k' })), headers);
    assert.equal(client.built, 4);
  });

  it('leaves a client alone whose headers may change between calls', async () => {
    for (const extra of [{ idempotencyHeader: 'Idempotency-Key' }, { _options: { apiKey: async () => 'fresh' } }]) {
      const client = fakeClient(extra);
      reuseRequestHeaders(client);
      await client.buildHeaders(post());
      await client.buildHeaders(post());
      assert.equal(client.built, 2);
    }
  });
});
