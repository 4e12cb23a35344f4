import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startFakeLlm, type FakeLlm } from '../src/index.js';
import { chat, post, sseData } from './helpers.js';

describe('fake-llm: OpenAI chat completions', () => {
  let llm: FakeLlm;
  before(async () => {
    llm = await startFakeLlm({
      rules: [
        { match: /weather/i, reply: 'Sunny, 21°C in Paris today.' },
        { match: 'ORDER', reply: { toolCalls: [{ name: 'lookup_order', arguments: { id: 42 } }] } },
        {
          match: ({ text }) => text.startsWith('think'),
          reply: { text: 'Done.', reasoning: 'Let me think step by step.' },
        },
      ],
      default: 'I do not know.',
    });
  });
  after(() => llm.close());

  it('listens on 127.0.0.1 on a random port', () => {
    assert.match(llm.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.ok(llm.port > 0);
  });

  it('answers JSON with the matched rule, the request model and usage', async () => {
    const res = await post(`${llm.url}/v1/chat/completions`, chat('What is the weather?'));
    assert.equal(res.status, 200);
    const body = await res.json();
    assert.equal(body.object, 'chat.completion');
    assert.equal(body.model, 'gpt-test');
    assert.equal(body.choices[0].message.content, 'Sunny, 21°C in Paris today.');
    assert.equal(body.choices[0].finish_reason, 'stop');
    assert.ok(body.usage.prompt_tokens > 0 && body.usage.completion_tokens > 0);
    assert.equal(body.usage.total_tokens, body.usage.prompt_tokens + body.usage.completion_tokens);
  });

  it('also serves /chat/completions and falls back to the default reply', async () => {
    const body = await (await post(`${llm.url}/chat/completions`, chat('something else'))).json();
    assert.equal(body.choices[0].message.content, 'I do not know.');
  });

  it('replies with tool calls whose arguments are JSON text', async () => {
    const body = await (await post(`${llm.url}/v1/chat/completions`, chat('where is my order'))).json();
    const call = body.choices[0].message.tool_calls[0];
    assert.equal(body.choices[0].finish_reason, 'tool_calls');
    assert.equal(call.type, 'function');
    assert.equal(call.function.name, 'lookup_order');
    assert.deepEqual(JSON.parse(call.function.arguments), { id: 42 });
    assert.match(call.id, /^call_/);
  });

  it('matches rules with functions and returns reasoning_content', async () => {
    const body = await (await post(`${llm.url}/v1/chat/completions`, chat('think hard'))).json();
    assert.equal(body.choices[0].message.reasoning_content, 'Let me think step by step.');
  });

  it('streams deltas that add up to the reply, then usage, then [DONE]', async () => {
    const res = await post(
      `${llm.url}/v1/chat/completions`,
      chat('weather please', { stream: true, stream_options: { include_usage: true } }),
    );
    assert.match(res.headers.get('content-type') ?? '', /text\/event-stream/);
    const events = sseData(await res.text());
    assert.equal(events.at(-1)!.data, '[DONE]');
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e.data));
    const text = chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');
    assert.equal(text, 'Sunny, 21°C in Paris today.');
    assert.ok(chunks.filter((c) => c.choices[0]?.delta.content).length > 1, 'more than one content delta');
    assert.equal(chunks.at(-2).choices[0].finish_reason, 'stop');
    assert.deepEqual(chunks.at(-1).choices, []);
    assert.ok(chunks.at(-1).usage.total_tokens > 0);
  });

  it('omits the usage chunk unless include_usage is set', async () => {
    const events = sseData(
      await (await post(`${llm.url}/v1/chat/completions`, chat('weather', { stream: true }))).text(),
    );
    assert.ok(events.slice(0, -1).every((e) => !JSON.parse(e.data).usage));
  });

  it('streams tool-call deltas: id and name first, then argument pieces', async () => {
    const events = sseData(
      await (await post(`${llm.url}/v1/chat/completions`, chat('order status', { stream: true }))).text(),
    );
    const deltas = events.slice(0, -1).flatMap((e) => JSON.parse(e.data).choices[0]?.delta.tool_calls ?? []);
    assert.equal(deltas[0].id.startsWith('call_'), true);
    assert.equal(deltas[0].function.name, 'lookup_order');
    assert.deepEqual(
      JSON.parse(deltas.map((d: { function: { arguments: string } }) => d.function.arguments).join('')),
      { id: 42 },
    );
  });

  it('records every request with headers and the last user message', async () => {
    const before = llm.requests.length;
    await post(`${llm.url}/v1/chat/completions`, chat('record me'), {
      authorization: 'Bearer sk-test',
      'x-custom': 'yes',
    });
    const recorded = llm.requests.at(-1)!;
    assert.equal(llm.requests.length, before + 1);
    assert.equal(recorded.api, 'openai');
    assert.equal(recorded.text, 'record me');
    assert.equal(recorded.headers.authorization, 'Bearer sk-test');
    assert.equal(recorded.headers['x-custom'], 'yes');
    assert.equal((recorded.body as { model: string }).model, 'gpt-test');
  });

  it('answers 404 in the OpenAI error format for unknown routes, 400 for a non-JSON body', async () => {
    const missing = await post(`${llm.url}/v1/nope`, {});
    assert.equal(missing.status, 404);
    assert.match((await missing.json()).error.message, /no route/);
    const bad = await fetch(`${llm.url}/v1/chat/completions`, { method: 'POST', body: '{oops' });
    assert.equal(bad.status, 400);
  });
});

describe('fake-llm: echo mode and setScript', () => {
  it('echoes the last user message, and setScript replaces the behaviour', async () => {
    const llm = await startFakeLlm({ echo: true });
    try {
      const first = await (await post(`${llm.url}/v1/chat/completions`, chat('ping 1'))).json();
      assert.equal(first.choices[0].message.content, 'ping 1');
      llm.setScript({ default: 'changed' });
      const second = await (await post(`${llm.url}/v1/chat/completions`, chat('ping 2'))).json();
      assert.equal(second.choices[0].message.content, 'changed');
    } finally {
      await llm.close();
    }
  });

  it('rejects an invalid rule regex when started', async () => {
    await assert.rejects(startFakeLlm({ rules: [{ match: '(' }] }), /rule #1 has an invalid regex/);
  });
});
