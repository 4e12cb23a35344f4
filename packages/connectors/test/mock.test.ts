import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AgentestError, type Message } from '@agentest/kernel';
import { createChatClient } from '../src/index.js';
import { HANG_MS, never, user } from './helpers.js';

const mock = (options: Record<string, unknown>) => createChatClient('mock', { type: 'mock', options });

const flaky = {
  seed: 7,
  replies: [
    {
      match: 'refund',
      choices: [
        { reply: 'Refund issued.', weight: 2 },
        { reply: 'Sorry, I cannot help.', weight: 1 },
      ],
    },
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
    const client = mock({
      replies: [
        { match: 'weather', reply: 'Sunny.' },
        { match: '.*', reply: 'Anything.' },
      ],
      default: 'unused',
    });
    const reply = await client.chat(
      {
        messages: [
          { role: 'user', content: 'ignored' },
          { role: 'assistant', content: 'x' },
          { role: 'user', content: 'WEATHER today?' },
        ],
      },
      never(),
    );
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
    const reply = await mock({ replies: [{ match: 'order', reply: { status: 'shipped', eta: 2 } }] }).chat(
      { messages: user('my order') },
      never(),
    );
    assert.deepEqual(reply.content, { status: 'shipped', eta: 2 });
    assert.equal(reply.text, '{"status":"shipped","eta":2}');
  });

  it('replies with tool calls', async () => {
    const reply = await mock({
      replies: [{ match: 'order', reply: 'Checking.', tool_calls: [{ name: 'lookup_order', arguments: { id: 42 } }] }],
    }).chat({ messages: user('order 42') }, never());
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
    const parallel = (
      await Promise.all(Array.from({ length: 12 }, () => client.chat({ messages: user('refund') }, never())))
    )
      .map((r) => r.text)
      .sort();
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
      for (let i = 0; i < 10; i++)
        out.push(
          await client.chat({ messages: user('q') }, never()).then(
            (r) => r.text,
            (e: Error) => e.message,
          ),
        );
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
    await mock({ latency_ms: [60_000, 90_000], replies: [{ match: 'fast', reply: 'f', latency_ms: 0 }] }).chat(
      { messages: user('fast') },
      never(),
    );
    assert.ok(performance.now() - started < HANG_MS, "the rule's latency 0 won over the 60-90 s range");
    const controller = new AbortController();
    const pending = mock({ latency_ms: 10_000 }).chat({ messages: user('x') }, controller.signal);
    controller.abort(new Error('timeout after 1s'));
    await assert.rejects(pending, /timeout after 1s/);
  });

  it('rejects bad options with CONNECTOR_INVALID', () => {
    const invalid = (options: Record<string, unknown>, pattern: RegExp) =>
      assert.throws(
        () => mock(options),
        (e: unknown) => e instanceof AgentestError && e.code === 'CONNECTOR_INVALID' && pattern.test(e.message),
      );
    invalid({ replies: [{ match: '(' }] }, /replies\.0\.match "\(" is not a valid regex/);
    invalid({ replys: [] }, /replys/);
    invalid({ replies: [{ choices: [{ reply: 'a', weight: 0 }] }] }, /all have weight 0/);
    invalid({ error_rate: 2 }, /error_rate/);
    invalid({ latency_ms: [50, 10] }, /min > max/);
    invalid({ replies: [{ after_tool: '' }] }, /replies\.0\.after_tool/);
    invalid({ replies: [{ after_tool: 3 }] }, /replies\.0\.after_tool/);
  });
});

/** A conversation where the model asked for tools and got their results back, as a tool loop sends it. */
function afterTools(question: string, results: Array<[name: string, content: string]>): Message[] {
  const calls = results.map(([name], i) => ({
    id: `call_${i}`,
    type: 'function',
    function: { name, arguments: '{}' },
  }));
  return [
    { role: 'user', content: question },
    { role: 'assistant', content: '', tool_calls: calls },
    ...results.map(([, content], i): Message => ({ role: 'tool', tool_call_id: `call_${i}`, content })),
  ];
}

const orders = {
  seed: 3,
  replies: [
    { match: 'order', tool_calls: [{ name: 'agents_orders_shop__lookup_order', arguments: { order_id: 'A1' } }] },
    {
      after_tool: 'lookup_order',
      match: 'cancel',
      tool_calls: [{ name: 'cancel_order', arguments: { order_id: '{{tool_result.id}}' } }],
    },
    {
      after_tool: 'lookup_order',
      reply:
        'Order {{tool_result.id}} is {{tool_result.status}} ({{tool_result.items.0.sku}}, {{tool_result.total}}, {{tool_result.missing}}).',
    },
    { after_tool: 'cancel_order', reply: { done: true, said: '{{tool_result}}' } },
  ],
  default: 'Anything else?',
};
const order = JSON.stringify({ id: 'A1', status: 'shipped', total: 42.5, items: [{ sku: 'mug' }] });

describe('mock connector in a tool loop', () => {
  it('answers tool results with the first after_tool rule for that tool (name or server__ suffix), filling {{tool_result.field}}', async () => {
    const client = mock(orders);
    const first = await client.chat({ messages: user('where is my order?') }, never());
    assert.deepEqual(
      first.toolCalls?.map((c) => c.name),
      ['agents_orders_shop__lookup_order'],
    );
    const reply = await client.chat(
      { messages: afterTools('where is my order?', [['agents_orders_shop__lookup_order', order]]) },
      never(),
    );
    assert.equal(reply.text, 'Order A1 is shipped (mug, 42.5, ).');
    assert.equal(reply.toolCalls, undefined);
    assert.equal(reply.trace!.finish_reason, 'stop');
    assert.deepEqual(reply.trace!.mock, { rule: 2, tool_result: 'agents_orders_shop__lookup_order' });
  });

  it('an after_tool rule with match also needs the user message to fit, and may call the next tool with fields of the result', async () => {
    const client = mock(orders);
    const next = await client.chat(
      { messages: afterTools('cancel my order', [['agents_orders_shop__lookup_order', order]]) },
      never(),
    );
    assert.deepEqual(next.toolCalls, [{ id: 'call_mock_0', name: 'cancel_order', arguments: { order_id: 'A1' } }]);
    const done = await client.chat(
      { messages: afterTools('cancel my order', [['cancel_order', 'cancelled']]) },
      never(),
    );
    assert.deepEqual(done.content, { done: true, said: 'cancelled' });
  });

  it('reads the tool that ends a longer conversation, and the tool message name when no call carries the id', async () => {
    const messages: Message[] = [
      ...afterTools('where is my order?', [['other_tool', 'x']]),
      { role: 'assistant', content: 'one more' },
      { role: 'user', content: 'and the order?' },
      { role: 'tool', name: 'lookup_order', content: order },
    ];
    assert.equal((await mock(orders).chat({ messages }, never())).text, 'Order A1 is shipped (mug, 42.5, ).');
  });

  it('never asks for the same tool again: uncovered tool results get the default, else their own text', async () => {
    const reply = await mock(orders).chat(
      { messages: afterTools('where is my order?', [['unknown_tool', 'result text']]) },
      never(),
    );
    assert.equal(reply.text, 'Anything else?');
    assert.equal(reply.toolCalls, undefined);
    const noDefault = mock({ replies: [{ match: 'order', tool_calls: [{ name: 'lookup_order' }] }] });
    assert.equal(
      (
        await noDefault.chat(
          {
            messages: afterTools('order?', [
              ['lookup_order', 'first'],
              ['lookup_order', 'second'],
            ]),
          },
          never(),
        )
      ).text,
      'first\nsecond',
    );
    assert.equal(
      (await noDefault.chat({ messages: user('no order tool results yet') }, never())).toolCalls?.[0]?.name,
      'lookup_order',
    );
  });

  it('skips after_tool rules when the conversation does not end with tool results', async () => {
    const client = mock({
      replies: [
        { after_tool: 'lookup_order', reply: 'after' },
        { match: '.*', reply: 'first turn' },
      ],
    });
    assert.equal((await client.chat({ messages: user('hi') }, never())).text, 'first turn');
    const answered = [
      ...afterTools('hi', [['lookup_order', '{}']]),
      { role: 'assistant', content: 'after' },
      { role: 'user', content: 'thanks' },
    ];
    assert.equal((await client.chat({ messages: answered }, never())).text, 'first turn');
  });

  it('{{tool_result}} is the whole text; a result that is not JSON leaves fields empty', async () => {
    const client = mock({ replies: [{ after_tool: 'echo', reply: '[{{ tool_result }}] [{{tool_result.a}}]' }] });
    assert.equal(
      (await client.chat({ messages: afterTools('q', [['echo', 'plain words']]) }, never())).text,
      '[plain words] []',
    );
    assert.equal(
      (await client.chat({ messages: afterTools('q', [['echo', '{"a":{"b":[1,null]}}']]) }, never())).text,
      '[{"a":{"b":[1,null]}}] [{"b":[1,null]}]',
    );
  });

  it('draws after tool results are seeded apart from first turns, so interleaving does not change them', async () => {
    const flakyTool = {
      seed: 5,
      replies: [
        { match: 'x', tool_calls: [{ name: 't' }] },
        { after_tool: 't', choices: [{ reply: 'a' }, { reply: 'b' }] },
      ],
    };
    const sequence = async (interleave: boolean) => {
      const client = mock(flakyTool);
      const out: string[] = [];
      for (let i = 0; i < 8; i++) {
        if (interleave) await client.chat({ messages: user('x') }, never());
        out.push((await client.chat({ messages: afterTools('x', [['t', 'r']]) }, never())).text);
      }
      return out;
    };
    const plain = await sequence(false);
    assert.deepEqual(await sequence(true), plain);
    assert.equal(new Set(plain).size, 2, `eight draws show both choices: ${plain}`);
  });
});
