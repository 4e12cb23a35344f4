import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { describe, it } from 'node:test';
import { ConnectorError, createChatClient, parseRetryAfter } from '../src/index.js';
import { anthropicConfig, HANG_MS, never, openaiConfig, user, withFake } from './helpers.js';

/**
 * A timer may fire up to 2 ms before `performance.now()` (or `Date.now()`) says its time is up: libuv keeps its loop
 * time in whole milliseconds, read from a clock that may lag one tick (1 ms) behind where the coarse clock
 * is that fine.
 */
const TIMER_EARLY_MS = 2;

const failure = async (promise: Promise<unknown>): Promise<ConnectorError> => {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof ConnectorError, `expected a ConnectorError, got ${error}`);
    return error;
  }
  assert.fail('expected the call to fail');
};

describe('parseRetryAfter', () => {
  it('reads delta-seconds and HTTP dates', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    assert.equal(parseRetryAfter('2', now), 2000);
    assert.equal(parseRetryAfter('0.5', now), 500);
    assert.equal(parseRetryAfter('Thu, 01 Jan 2026 00:00:03 GMT', now), 3000);
    assert.equal(parseRetryAfter('Wed, 31 Dec 2025 23:59:00 GMT', now), 0, 'a past date means now');
    assert.equal(parseRetryAfter('soon', now), undefined);
    assert.equal(parseRetryAfter(null, now), undefined);
  });
});

describe('retries', () => {
  it('429 with Retry-After: waits that long, retries, and counts the retry', async () => {
    await withFake(
      { queue: [{ type: 'status', status: 429, retryAfter: 1 }], default: 'after the storm' },
      async (llm) => {
        const started = performance.now();
        const reply = await createChatClient('fake', openaiConfig(llm), {}).chat({ messages: user('hi') }, never());
        assert.equal(reply.text, 'after the storm');
        assert.equal(reply.trace!.retries, 1);
        assert.equal(llm.requests.length, 2);
        assert.ok(performance.now() - started >= 1000 - TIMER_EARLY_MS, 'Retry-After: 1 was honoured');
      },
    );
  });

  it('429 with Retry-After as an HTTP date', async () => {
    const date = new Date(Date.now() + 1000).toUTCString();
    await withFake({ queue: [{ type: 'status', status: 429, retryAfter: date }] }, async (llm) => {
      const reply = await createChatClient('fake', openaiConfig(llm), {}).chat({ messages: user('hi') }, never());
      assert.equal(reply.trace!.retries, 1);
      assert.ok(llm.requests[1].receivedAt >= Date.parse(date) - TIMER_EARLY_MS, 'the retry waited for the date');
    });
  });

  for (const type of ['openai', 'anthropic'] as const) {
    it(`${type}: 500 then 503 then success is two retries`, async () => {
      await withFake({ queue: [500, 503], default: 'ok now' }, async (llm) => {
        const config = type === 'openai' ? openaiConfig(llm) : anthropicConfig(llm);
        const reply = await createChatClient('fake', config, {}).chat({ messages: user('hi') }, never());
        assert.equal(reply.text, 'ok now');
        assert.equal(reply.trace!.retries, 2);
      });
    });
  }

  it('gives up after the configured retries with status, server text and attempts', async () => {
    await withFake(
      { rules: [{ fault: { type: 'status', status: 502, message: 'upstream is down' } }] },
      async (llm) => {
        const error = await failure(
          createChatClient('fake', openaiConfig(llm, { retries: 2 }), {}).chat({ messages: user('hi') }, never()),
        );
        assert.equal(llm.requests.length, 3);
        assert.equal(error.status, 502);
        assert.equal(error.attempts, 3);
        assert.match(
          error.message,
          /^openai connector "fake": HTTP 502 from http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions: upstream is down \(3 attempts made, retries exhausted\)$/,
        );
      },
    );
  });

  it('does not retry a 400, and says so', async () => {
    await withFake({ queue: [{ type: 'status', status: 400, message: 'model not found' }] }, async (llm) => {
      const error = await failure(
        createChatClient('fake', openaiConfig(llm), {}).chat({ messages: user('hi') }, never()),
      );
      assert.equal(llm.requests.length, 1);
      assert.match(error.message, /HTTP 400 .*model not found \(1 attempt made, not retryable\)/);
    });
  });

  it('a Retry-After beyond the limit fails at once instead of stalling the run', async () => {
    await withFake({ queue: [{ type: 'status', status: 429, retryAfter: 3600 }] }, async (llm) => {
      const error = await failure(
        createChatClient('fake', openaiConfig(llm), {}).chat({ messages: user('hi') }, never()),
      );
      assert.match(error.message, /retry after 3600s, over the 60s limit/);
    });
  });

  it('a malformed JSON body is a clear, non-retried error', async () => {
    await withFake({ queue: ['malformed'] }, async (llm) => {
      const error = await failure(
        createChatClient('fake', openaiConfig(llm), {}).chat({ messages: user('hi') }, never()),
      );
      assert.equal(llm.requests.length, 1);
      assert.match(error.message, /sent malformed JSON/);
    });
  });

  for (const type of ['openai', 'anthropic'] as const) {
    it(`${type}: a stream cut mid-way is retried, and a clear error when it keeps happening`, async () => {
      await withFake(
        { default: 'a reply long enough to arrive in several chunks', queue: [{ type: 'cut', afterChunks: 2 }] },
        async (llm) => {
          const config = (options: Record<string, unknown>) =>
            type === 'openai' ? openaiConfig(llm, options) : anthropicConfig(llm, options);
          const reply = await createChatClient('fake', config({ stream: true }), {}).chat(
            { messages: user('hi') },
            never(),
          );
          assert.equal(reply.text, 'a reply long enough to arrive in several chunks');
          assert.equal(reply.trace!.retries, 1);

          llm.setScript({ rules: [{ fault: { type: 'cut', afterChunks: 2 } }] });
          const error = await failure(
            createChatClient('fake', config({ stream: true, retries: 1 }), {}).chat({ messages: user('hi') }, never()),
          );
          assert.match(error.message, /closed before the reply was complete .*\(2 attempts made, retries exhausted\)/);
        },
      );
    });
  }

  it('a connection reset is retried', async () => {
    await withFake({ queue: ['reset'], default: 'fine' }, async (llm) => {
      const reply = await createChatClient('fake', openaiConfig(llm), {}).chat({ messages: user('hi') }, never());
      assert.equal(reply.trace!.retries, 1);
    });
  });

  it('a refused connection is retried, then reported with the address', async () => {
    const port = await freePort();
    const client = createChatClient(
      'down',
      { type: 'openai', options: { host: `http://127.0.0.1:${port}`, model: 'm', retries: 2, backoff_ms: 1 } },
      {},
    );
    const error = await failure(client.chat({ messages: user('hi') }, never()));
    assert.match(
      error.message,
      new RegExp(
        `cannot reach http://127\\.0\\.0\\.1:${port}/v1/chat/completions: .*ECONNREFUSED.*\\(3 attempts made, retries exhausted\\)`,
      ),
    );
  });

  it('the abort signal cancels a hung request', async () => {
    await withFake({ queue: ['hang'] }, async (llm) => {
      const controller = new AbortController();
      const call = createChatClient('fake', openaiConfig(llm), {}).chat({ messages: user('hi') }, controller.signal);
      while (llm.requests.length === 0) await new Promise((r) => setImmediate(r));
      controller.abort(new Error('timeout after 5s'));
      await assert.rejects(call, /timeout after 5s/);
    });
  });

  it('the abort signal cancels a backoff wait', async () => {
    // 60 s, the longest wait the default policy accepts, and twice HANG_MS.
    await withFake({ queue: [{ type: 'status', status: 429, retryAfter: 60 }] }, async (llm) => {
      const controller = new AbortController();
      const started = performance.now();
      const call = createChatClient('fake', openaiConfig(llm), {}).chat({ messages: user('hi') }, controller.signal);
      while (llm.requests.length === 0) await new Promise((r) => setImmediate(r));
      setImmediate(() => controller.abort(new Error('timeout after 1s')));
      await assert.rejects(call, /timeout after 1s/);
      assert.ok(performance.now() - started < HANG_MS, 'did not wait for Retry-After: 60');
      assert.equal(llm.requests.length, 1);
    });
  });

  it('never puts the key in error messages', async () => {
    await withFake(
      { queue: [{ type: 'status', status: 401, message: 'Incorrect API key provided: sk-secret-123456' }] },
      async (llm) => {
        const error = await failure(
          createChatClient('fake', openaiConfig(llm, { key: 'sk-secret-123456' }), {}).chat(
            { messages: user('hi') },
            never(),
          ),
        );
        assert.match(error.message, /HTTP 401/);
        assert.doesNotMatch(error.message, /sk-secret-123456/);
      },
    );
  });
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('rate limits have their own retry budget', () => {
  it('a run of 429s beyond `retries` still ends in an answer, counted in trace.retries', async () => {
    const storm = Array.from({ length: 4 }, () => ({ type: 'status' as const, status: 429, retryAfter: 0 }));
    await withFake({ queue: storm, default: 'finally' }, async (llm) => {
      const client = createChatClient('rl', {
        type: 'openai',
        options: { host: llm.url, model: 'm', retries: 1, backoff_ms: 1 },
      });
      const reply = await client.chat({ messages: [{ role: 'user', content: 'hi' }] }, new AbortController().signal);
      assert.equal(reply.text, 'finally');
      assert.equal(reply.trace?.retries, 4);
    });
  });

  it('rate_limit_retries: 0 gives up on the first 429 and says so', async () => {
    await withFake({ queue: [{ type: 'status', status: 429, retryAfter: 0 }], default: 'never seen' }, async (llm) => {
      const client = createChatClient('rl0', {
        type: 'openai',
        options: { host: llm.url, model: 'm', rate_limit_retries: 0 },
      });
      await assert.rejects(
        client.chat({ messages: [{ role: 'user', content: 'hi' }] }, new AbortController().signal),
        /rate-limit retries exhausted/,
      );
    });
  });
});
