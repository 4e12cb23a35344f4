import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { connectorAgent, createChatClient } from '../src/index.js';
import { never, openaiConfig, user, withFake } from './helpers.js';

const script = {
  rules: [
    { match: /weather/i, reply: 'It is sunny in Paris today.' },
    {
      match: /order/i,
      reply: {
        text: 'Looking it up.',
        toolCalls: [
          { name: 'lookup_order', arguments: { id: 42 } },
          { name: 'notify', arguments: { channel: 'email' } },
        ],
      },
    },
    { match: /think/i, reply: { text: '42', reasoning: 'Six times seven.' } },
  ],
  default: 'default reply',
};

describe('openai connector', () => {
  for (const stream of [false, true]) {
    const mode = stream ? 'streamed' : 'JSON';
    it(`${mode}: text, model, finish reason, usage and zero retries`, async () => {
      await withFake(script, async (llm) => {
        const client = createChatClient('fake', openaiConfig(llm, { stream }), {});
        const reply = await client.chat({ messages: user('what is the weather?') }, never());
        assert.equal(reply.content, 'It is sunny in Paris today.');
        assert.equal(reply.text, 'It is sunny in Paris today.');
        assert.equal(reply.toolCalls, undefined);
        assert.deepEqual(Object.keys(reply.usage!).sort(), ['completion_tokens', 'prompt_tokens', 'total_tokens']);
        assert.ok(reply.usage!.prompt_tokens! > 0 && reply.usage!.completion_tokens! > 0);
        assert.equal(reply.trace!.model, 'gpt-fake');
        assert.equal(reply.trace!.finish_reason, 'stop');
        assert.equal(reply.trace!.retries, 0);
        assert.equal(llm.requests[0].stream, stream);
        if (stream)
          assert.deepEqual((llm.requests[0].body as { stream_options: unknown }).stream_options, {
            include_usage: true,
          });
      });
    });

    it(`${mode}: tool calls with parsed arguments`, async () => {
      await withFake(script, async (llm) => {
        const client = createChatClient('fake', openaiConfig(llm, { stream }), {});
        const reply = await client.chat({ messages: user('where is my order?') }, never());
        assert.equal(reply.text, 'Looking it up.');
        assert.equal(reply.trace!.finish_reason, 'tool_calls');
        assert.deepEqual(
          reply.toolCalls!.map((c) => [c.name, c.arguments]),
          [
            ['lookup_order', { id: 42 }],
            ['notify', { channel: 'email' }],
          ],
        );
        assert.ok(reply.toolCalls!.every((c) => typeof c.id === 'string' && c.id.startsWith('call_')));
      });
    });

    it(`${mode}: reasoning_content goes to the trace`, async () => {
      await withFake(script, async (llm) => {
        const reply = await createChatClient('fake', openaiConfig(llm, { stream }), {}).chat(
          { messages: user('think') },
          never(),
        );
        assert.equal(reply.trace!.reasoning_content, 'Six times seven.');
      });
    });
  }

  it('passes connector params, extra_body and request options through; the request wins', async () => {
    await withFake(script, async (llm) => {
      const client = createChatClient(
        'fake',
        openaiConfig(llm, {
          temperature: 0.2,
          max_tokens: 50,
          extra_body: { top_k: 5 },
          capabilities: { vision: true },
        }),
        {},
      );
      const tools = [{ type: 'function', function: { name: 'lookup_order', parameters: { type: 'object' } } }];
      await client.chat({ messages: user('hi'), options: { max_tokens: 10, tools, tool_choice: 'auto' } }, never());
      const body = llm.requests[0].body as Record<string, unknown>;
      assert.equal(body.temperature, 0.2);
      assert.equal(body.max_tokens, 10);
      assert.equal(body.top_k, 5);
      assert.deepEqual(body.tools, tools);
      assert.equal(body.tool_choice, 'auto');
      assert.equal(body.capabilities, undefined, 'descriptive options are not sent');
      assert.equal(body.stream, undefined);
    });
  });

  it('sends the key as a bearer token, and no Authorization header without a key', async () => {
    await withFake(script, async (llm) => {
      await createChatClient('keyed', openaiConfig(llm, { key: 'sk-abc' }), {}).chat({ messages: user('hi') }, never());
      await createChatClient('keyless', openaiConfig(llm), {}).chat({ messages: user('hi') }, never());
      assert.equal(llm.requests[0].headers.authorization, 'Bearer sk-abc');
      assert.equal(llm.requests[1].headers.authorization, undefined);
    });
  });

  it('connectorAgent sends [prompts…, …messages] with the agent options', async () => {
    await withFake(script, async (llm) => {
      const client = createChatClient('fake', openaiConfig(llm), {});
      const agent = connectorAgent('support', client, {
        prompts: [{ role: 'system', content: 'You are terse.' }],
        options: { temperature: 0 },
        path: 'agentest.config.ts',
      });
      assert.equal(agent.connector, 'fake');
      assert.equal(agent.path, 'agentest.config.ts');
      const reply = await agent.run(user('weather?'), {} as never, never());
      assert.equal(reply.content, 'It is sunny in Paris today.');
      const body = llm.requests[0].body as { messages: unknown[]; temperature: number };
      assert.deepEqual(body.messages, [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'weather?' },
      ]);
      assert.equal(body.temperature, 0);
    });
  });
});
