import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startFakeLlm } from '../src/index.js';
import { chat, HANG_MS, post, sseData } from './helpers.js';

const openai = (url: string, text = 'hi', extra: Record<string, unknown> = {}) =>
  post(`${url}/v1/chat/completions`, chat(text, extra));

describe('fake-llm: faults', () => {
  it('429 with Retry-After in seconds, and without', async () => {
    const llm = await startFakeLlm({ queue: [{ type: 'status', status: 429, retryAfter: 2 }, 429] });
    try {
      const first = await openai(llm.url);
      assert.equal(first.status, 429);
      assert.equal(first.headers.get('retry-after'), '2');
      assert.equal((await first.json()).error.type, 'rate_limit_exceeded');
      const second = await openai(llm.url);
      assert.equal(second.status, 429);
      assert.equal(second.headers.get('retry-after'), null);
      assert.equal((await openai(llm.url)).status, 200, 'the queue is used up');
      assert.deepEqual(
        llm.requests.map((r) => r.fault),
        ['status:429', 'status:429', undefined],
      );
    } finally {
      await llm.close();
    }
  });

  it('500, 502 and 503 from a queue; null lets a request through', async () => {
    const llm = await startFakeLlm({ queue: [500, null, 502, 503] });
    try {
      const statuses = [];
      for (let i = 0; i < 5; i++) statuses.push((await openai(llm.url)).status);
      assert.deepEqual(statuses, [500, 200, 502, 503, 200]);
    } finally {
      await llm.close();
    }
  });

  it('a fault on every third request', async () => {
    const llm = await startFakeLlm({ faults: [{ every: 3, fault: { type: 'status', status: 429, retryAfter: 1 } }] });
    try {
      const statuses = [];
      for (let i = 0; i < 7; i++) statuses.push((await openai(llm.url)).status);
      assert.deepEqual(statuses, [200, 200, 429, 200, 200, 429, 200]);
    } finally {
      await llm.close();
    }
  });

  it('a fault by rule, limited with times', async () => {
    const llm = await startFakeLlm({ rules: [{ match: /flaky/, fault: 500, times: 2 }], default: 'fine' });
    try {
      assert.equal((await openai(llm.url, 'calm')).status, 200);
      assert.equal((await openai(llm.url, 'flaky')).status, 500);
      assert.equal((await openai(llm.url, 'flaky')).status, 500);
      const third = await openai(llm.url, 'flaky');
      assert.equal(third.status, 200);
      assert.equal((await third.json()).choices[0].message.content, 'fine');
    } finally {
      await llm.close();
    }
  });

  it('a hang never answers, and close() ends it', async () => {
    const llm = await startFakeLlm({ queue: ['hang'] });
    const pending = openai(llm.url).then(
      () => 'answered',
      () => 'connection closed',
    );
    while (llm.requests.length === 0) await new Promise((r) => setImmediate(r));
    const raced = await Promise.race([pending, new Promise((r) => setTimeout(() => r('still hanging'), 50))]);
    assert.equal(raced, 'still hanging');
    await llm.close();
    assert.equal(await pending, 'connection closed');
  });

  it('a malformed JSON body with status 200', async () => {
    const llm = await startFakeLlm({ queue: ['malformed'] });
    try {
      const res = await openai(llm.url);
      assert.equal(res.status, 200);
      await assert.rejects(res.json(), SyntaxError);
    } finally {
      await llm.close();
    }
  });

  it('a malformed SSE event when streaming', async () => {
    const llm = await startFakeLlm({ queue: ['malformed'] });
    try {
      const events = sseData(await (await openai(llm.url, 'hi', { stream: true })).text());
      assert.throws(() => events.forEach((e) => JSON.parse(e.data)), SyntaxError);
    } finally {
      await llm.close();
    }
  });

  it('cuts a stream mid-way by destroying the socket', async () => {
    const llm = await startFakeLlm({
      default: 'a reply long enough to need several chunks',
      queue: [{ type: 'cut', afterChunks: 2 }],
    });
    try {
      const res = await openai(llm.url, 'hi', { stream: true });
      assert.equal(res.status, 200);
      await assert.rejects(res.text(), /terminated/);
    } finally {
      await llm.close();
    }
  });

  it('cuts a JSON body half-way', async () => {
    const llm = await startFakeLlm({ queue: ['cut'] });
    try {
      const res = await openai(llm.url);
      await assert.rejects(res.text(), /terminated/);
    } finally {
      await llm.close();
    }
  });

  it('resets the connection without answering', async () => {
    const llm = await startFakeLlm({ queue: ['reset'] });
    try {
      await assert.rejects(openai(llm.url), /fetch failed/);
    } finally {
      await llm.close();
    }
  });

  it('a huge reply of N bytes, as JSON and streamed', async () => {
    const llm = await startFakeLlm({
      queue: [
        { type: 'huge', bytes: 1_000_000 },
        { type: 'huge', bytes: 100_000 },
      ],
    });
    try {
      const body = await (await openai(llm.url)).json();
      assert.equal(body.choices[0].message.content.length, 1_000_000);
      const events = sseData(await (await openai(llm.url, 'hi', { stream: true })).text()).slice(0, -1);
      assert.equal(events.map((e) => JSON.parse(e.data).choices[0]?.delta.content ?? '').join('').length, 100_000);
    } finally {
      await llm.close();
    }
  });

  it('waits the configured latency, per rule too', async () => {
    const llm = await startFakeLlm({ latencyMs: 80, rules: [{ match: /fast/, reply: 'quick', latencyMs: 0 }] });
    try {
      let t = performance.now();
      await (await openai(llm.url, 'slow')).json();
      assert.ok(performance.now() - t >= 75, 'global latency applied');
      llm.setScript({ latencyMs: 60_000, rules: [{ match: /fast/, reply: 'quick', latencyMs: 0 }] });
      t = performance.now();
      await (await openai(llm.url, 'fast')).json();
      assert.ok(performance.now() - t < HANG_MS, 'rule latency 0 wins over the global 60 s');
    } finally {
      await llm.close();
    }
  });

  it('checks Authorization or x-api-key when configured', async () => {
    const llm = await startFakeLlm({ apiKey: 'sk-right' });
    try {
      assert.equal((await openai(llm.url)).status, 401);
      assert.equal(
        (await post(`${llm.url}/v1/chat/completions`, chat('hi'), { authorization: 'Bearer sk-wrong' })).status,
        401,
      );
      assert.equal(
        (await post(`${llm.url}/v1/chat/completions`, chat('hi'), { authorization: 'Bearer sk-right' })).status,
        200,
      );
      assert.equal((await post(`${llm.url}/v1/messages`, chat('hi'), { 'x-api-key': 'sk-right' })).status, 200);
    } finally {
      await llm.close();
    }
  });

  it('rejects unknown fault shorthands', async () => {
    await assert.rejects(startFakeLlm({ queue: ['explode' as never] }), /unknown fault "explode"/);
    await assert.rejects(startFakeLlm({ queue: [200] }), /400–599/);
  });
});
