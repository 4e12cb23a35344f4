import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AgentestError } from '@agentest/kernel';
import { createChatClient } from '../src/index.js';
import { never, user } from './helpers.js';

const mock = (options: Record<string, unknown>) => createChatClient('mock', { type: 'mock', options });

const flaky = {
  seed: 7,
  replies: [
    { match: 'refund', choices: [{ reply: 'Refund issued.', weight: 2 }, { reply: 'Sorry, I cannot help.', weight: 1 }] },
    { match: '^hello$', reply: 'Hi!' },
  ],
};

async function replies(client: ReturnType<typeof mock>, texts: string[]): Promise<string[]> {
  const out: string[] = [];
  for (const text of texts) out.push((await client.chat({ messages: user(text) }, never())).text);
  return out;
}

describe('mock connector', () => {
  it('matches the last user message case-insensitively, first rule wins', async () => {
    const client = mock({ replies: [{ match: 'weather', reply: 'Sunny.' }, { match: '.*', reply: 'Anything.' }], default: 'unused' });
    const reply = await client.chat({ messages: [{ role: 'user', content: 'ignored' }, { role: 'assistant', content: 'x' }, { role: 'user', content: 'WEATHER today?' }] }, never());
    assert.equal(reply.content, 'Sunny.');
    assert.equal(reply.text, 'Sunny.');
    assert.equal(reply.trace!.finish_reason, 'stop');
    assert.deepEqual(reply.trace!.mock, { rule: 0 });
    assert.ok(reply.usage!.total_tokens! > 0);
  });

  it('falls back to default, then to echoing the input', async () => {
    assert.equal((await mock({ default: 'fallback' }).chat({ messages: user('x') }, never())).text, 'fallback');
    assert.equal((await mock({}).chat({ messages: user('echo me') }, never())).text, 'echo me');
  });

  it('an object reply is the content as an object, and its JSON as text', async () => {
    const reply = await mock({ replies: [{ match: 'order', reply: { status: 'shipped', eta: 2 } }] }).chat({ messages: user('my order') }, never());
    assert.deepEqual(reply.content, { status: 'shipped', eta: 2 });
    assert.equal(reply.text, '{"status":"shipped","eta":2}');
  });

  it('replies with tool calls', async () => {
    const reply = await mock({ replies: [{ match: 'order', reply: 'Checking.', tool_calls: [{ name: 'lookup_order', arguments: { id: 42 } }] }] }).chat({ messages: user('order 42') }, never());
    assert.deepEqual(reply.toolCalls, [{ id: 'call_mock_0', name: 'lookup_order', arguments: { id: 42 } }]);
    assert.equal(reply.trace!.finish_reason, 'tool_calls');
  });

  it('choices: the same seed gives the same sequence, whatever the order of other calls', async () => {
    const asked = ['refund', 'refund', 'refund', 'refund', 'refund', 'refund', 'hello'];
    const first = await replies(mock(flaky), asked);
    const interleaved = mock(flaky);
    await replies(interleaved, ['hello', 'something else']);
    const second = await replies(interleaved, asked);
    assert.deepEqual(second, first);
    assert.ok(new Set(first.slice(0, 6)).size === 2, `six calls show both outcomes: ${first}`);
  });

  it('choices: concurrent calls give the same multiset of outcomes as sequential ones', async () => {
    const sequential = (await replies(mock(flaky), Array(12).fill('refund'))).sort();
    const client = mock(flaky);
    const parallel = (await Promise.all(Array.from({ length: 12 }, () => client.chat({ messages: user('refund') }, never())))).map((r) => r.text).sort();
    assert.deepEqual(parallel, sequential);
  });

  it('choices: a different seed gives a different sequence, and weights shape the mix', async () => {
    const a = await replies(mock(flaky), Array(40).fill('refund'));
    const b = await replies(mock({ ...flaky, seed: 8 }), Array(40).fill('refund'));
    assert.notDeepEqual(a, b);
    const issued = a.filter((t) => t === 'Refund issued.').length;
    assert.ok(issued > 20 && issued < 36, `weight 2:1 gives about two thirds, got ${issued}/40`);
  });

  it('error_rate fails some calls, reproducibly', async () => {
    const options = { seed: 1, error_rate: 0.5, default: 'ok' };
    const outcomes = async () => {
      const client = mock(options);
      const out: string[] = [];
      for (let i = 0; i < 10; i++) out.push(await client.chat({ messages: user('q') }, never()).then((r) => r.text, (e: Error) => e.message));
      return out;
    };
    const first = await outcomes();
    assert.deepEqual(await outcomes(), first);
    assert.ok(first.includes('ok'));
    assert.ok(first.some((o) => /mock connector "mock": simulated failure \(error_rate 0\.5/.test(o)));
  });

  it('waits its latency, per rule or as a [min, max] range, and the signal cuts it short', async () => {
    let started = performance.now();
    await mock({ latency_ms: 60 }).chat({ messages: user('x') }, never());
    assert.ok(performance.now() - started >= 55);
    started = performance.now();
    await mock({ latency_ms: [30, 40], replies: [{ match: 'fast', reply: 'f', latency_ms: 0 }] }).chat({ messages: user('fast') }, never());
    assert.ok(performance.now() - started < 30);
    const controller = new AbortController();
    const pending = mock({ latency_ms: 10_000 }).chat({ messages: user('x') }, controller.signal);
    controller.abort(new Error('timeout after 1s'));
    await assert.rejects(pending, /timeout after 1s/);
  });

  it('rejects bad options with CONNECTOR_INVALID', () => {
    const invalid = (options: Record<string, unknown>, pattern: RegExp) =>
      assert.throws(() => mock(options), (e: unknown) => e instanceof AgentestError && e.code === 'CONNECTOR_INVALID' && pattern.test(e.message));
    invalid({ replies: [{ match: '(' }] }, /replies\.0\.match "\(" is not a valid regex/);
    invalid({ replys: [] }, /replys/);
    invalid({ replies: [{ choices: [{ reply: 'a', weight: 0 }] }] }, /all have weight 0/);
    invalid({ error_rate: 2 }, /error_rate/);
    invalid({ latency_ms: [50, 10] }, /min > max/);
  });
});
