import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createChatClient, type ChatRequest } from '../src/index.js';
import { anthropicConfig, never, user, withFake } from './helpers.js';

const script = {
  rules: [
    { match: /hello/i, reply: 'Hello! How can I help?' },
    {
      match: /refund/i,
      reply: { text: 'Let me check.', toolCalls: [{ name: 'issue_refund', arguments: { order: 'A1', amount: 5 } }] },
    },
    { match: /ponder/i, reply: { text: 'Yes.', reasoning: 'Considering it.' } },
  ],
};

/** A request in OpenAI's shape: a system prompt, a tool call and its result, an image, OpenAI-style options. */
const OPENAI_STYLE_REQUEST: ChatRequest = {
  messages: [
    { role: 'system', content: 'You are a support bot.' },
    { role: 'user', content: 'refund A1' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'toolu_1', type: 'function', function: { name: 'issue_refund', arguments: '{"order":"A1"}' } },
      ],
    },
    { role: 'tool', tool_call_id: 'toolu_1', content: 'refunded' },
    {
      role: 'user',
      content: [
        { type: 'text', text: 'thanks' },
        { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
      ],
    },
  ],
  options: {
    max_completion_tokens: 300,
    stop: 'END',
    seed: 7,
    tools: [
      {
        type: 'function',
        function: {
          name: 'issue_refund',
          description: 'Refund an order',
          parameters: { type: 'object', properties: { order: { type: 'string' } } },
        },
      },
    ],
    tool_choice: 'required',
  },
};

/** The same conversation as Anthropic's messages API takes it. */
const ANTHROPIC_MESSAGES = [
  { role: 'user', content: [{ type: 'text', text: 'refund A1' }] },
  {
    role: 'assistant',
    content: [{ type: 'tool_use', id: 'toolu_1', name: 'issue_refund', input: { order: 'A1' } }],
  },
  {
    role: 'user',
    content: [
      { type: 'tool_result', tool_use_id: 'toolu_1', content: 'refunded' },
      { type: 'text', text: 'thanks' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } },
    ],
  },
];

describe('anthropic connector', () => {
  for (const stream of [false, true]) {
    const mode = stream ? 'streamed' : 'JSON';
    it(`${mode}: text, usage, stop reason`, async () => {
      await withFake(script, async (llm) => {
        const reply = await createChatClient('claude', anthropicConfig(llm, { stream }), {}).chat(
          { messages: user('hello there') },
          never(),
        );
        assert.equal(reply.content, 'Hello! How can I help?');
        assert.equal(reply.trace!.model, 'claude-fake');
        assert.equal(reply.trace!.finish_reason, 'end_turn');
        assert.equal(reply.trace!.retries, 0);
        assert.ok(reply.usage!.prompt_tokens! > 0 && reply.usage!.completion_tokens! > 0);
        assert.equal(reply.usage!.total_tokens, reply.usage!.prompt_tokens! + reply.usage!.completion_tokens!);
        assert.equal(llm.requests[0].stream, stream);
        assert.equal(llm.requests[0].path, '/v1/messages');
      });
    });

    it(`${mode}: tool_use blocks become tool calls`, async () => {
      await withFake(script, async (llm) => {
        const reply = await createChatClient('claude', anthropicConfig(llm, { stream }), {}).chat(
          { messages: user('refund please') },
          never(),
        );
        assert.equal(reply.text, 'Let me check.');
        assert.equal(reply.trace!.finish_reason, 'tool_use');
        assert.equal(reply.toolCalls!.length, 1);
        assert.equal(reply.toolCalls![0].name, 'issue_refund');
        assert.deepEqual(reply.toolCalls![0].arguments, { order: 'A1', amount: 5 });
        assert.match(reply.toolCalls![0].id!, /^toolu_/);
      });
    });

    it(`${mode}: thinking goes to trace.reasoning_content`, async () => {
      await withFake(script, async (llm) => {
        const reply = await createChatClient('claude', anthropicConfig(llm, { stream }), {}).chat(
          { messages: user('ponder') },
          never(),
        );
        assert.equal(reply.text, 'Yes.');
        assert.equal(reply.trace!.reasoning_content, 'Considering it.');
      });
    });
  }

  it('maps system prompts, tool calls, tool results and OpenAI-style options', async () => {
    await withFake(script, async (llm) => {
      const client = createChatClient('claude', anthropicConfig(llm, { temperature: 0.5 }), {});
      await client.chat(OPENAI_STYLE_REQUEST, never());
      const body = llm.requests[0].body as Record<string, any>;
      assert.equal(body.system, 'You are a support bot.');
      assert.equal(body.max_tokens, 300);
      assert.equal(body.temperature, 0.5);
      assert.deepEqual(body.stop_sequences, ['END']);
      assert.equal(body.seed, undefined, 'OpenAI-only options are dropped');
      assert.deepEqual(body.tools, [
        {
          name: 'issue_refund',
          description: 'Refund an order',
          input_schema: { type: 'object', properties: { order: { type: 'string' } } },
        },
      ]);
      assert.deepEqual(body.tool_choice, { type: 'any' });
      assert.deepEqual(body.messages, ANTHROPIC_MESSAGES);
    });
  });

  it('sends the key the way the SDK does, defaults max_tokens, and sends no key when none is configured', async () => {
    await withFake(script, async (llm) => {
      await createChatClient('claude', anthropicConfig(llm), {}).chat({ messages: user('hello') }, never());
      await createChatClient('local', anthropicConfig(llm, { key: undefined }), {}).chat(
        { messages: user('hello') },
        never(),
      );
      const sent = llm.requests[0].headers;
      assert.ok(sent['x-api-key'] === 'sk-ant-test' || sent.authorization === 'Bearer sk-ant-test', 'the key is sent');
      assert.equal((llm.requests[0].body as { max_tokens: number }).max_tokens, 4096);
      assert.equal(llm.requests[1].headers['x-api-key'], undefined);
      assert.equal(llm.requests[1].headers.authorization, undefined);
    });
  });

  it('uses a host with a trailing slash verbatim', async () => {
    await withFake(script, async (llm) => {
      const reply = await createChatClient('claude', anthropicConfig(llm, { host: `${llm.url}/` }), {}).chat(
        { messages: user('hello') },
        never(),
      );
      assert.equal(reply.text, 'Hello! How can I help?');
      assert.equal(llm.requests[0].path, '/messages');
    });
  });
});
