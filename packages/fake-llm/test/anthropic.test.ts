import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startFakeLlm, type FakeLlm } from '../src/index.js';
import { post, sseData } from './helpers.js';

const request = (text: string, extra: Record<string, unknown> = {}) => ({
  model: 'claude-test',
  max_tokens: 100,
  system: 'be brief',
  messages: [{ role: 'user', content: [{ type: 'text', text }] }],
  ...extra,
});

describe('fake-llm: Anthropic messages', () => {
  let llm: FakeLlm;
  before(async () => {
    llm = await startFakeLlm({
      rules: [
        { match: /hello/i, reply: 'Hi there, how can I help?' },
        {
          match: /refund/i,
          reply: { text: 'Checking.', toolCalls: [{ name: 'issue_refund', arguments: { order: 'A1', amount: 5 } }] },
        },
      ],
    });
  });
  after(() => llm.close());

  it('answers JSON with text content, stop_reason and usage', async () => {
    const body = await (await post(`${llm.url}/v1/messages`, request('hello'))).json();
    assert.equal(body.type, 'message');
    assert.equal(body.model, 'claude-test');
    assert.deepEqual(body.content, [{ type: 'text', text: 'Hi there, how can I help?' }]);
    assert.equal(body.stop_reason, 'end_turn');
    assert.ok(body.usage.input_tokens > 0 && body.usage.output_tokens > 0);
    assert.equal(llm.requests.at(-1)!.api, 'anthropic');
  });

  it('returns tool_use blocks with parsed input', async () => {
    const body = await (await post(`${llm.url}/v1/messages`, request('I want a refund'))).json();
    assert.equal(body.stop_reason, 'tool_use');
    assert.equal(body.content[0].text, 'Checking.');
    assert.equal(body.content[1].type, 'tool_use');
    assert.equal(body.content[1].name, 'issue_refund');
    assert.deepEqual(body.content[1].input, { order: 'A1', amount: 5 });
  });

  it('streams the full event sequence and deltas that add up', async () => {
    const events = sseData(
      await (await post(`${llm.url}/v1/messages`, request('refund please', { stream: true }))).text(),
    );
    const names = events.map((e) => e.event);
    assert.equal(names[0], 'message_start');
    assert.deepEqual(names.slice(-2), ['message_delta', 'message_stop']);
    assert.equal(names.filter((n) => n === 'content_block_start').length, 2);
    assert.equal(names.filter((n) => n === 'content_block_stop').length, 2);
    const data = events.map((e) => JSON.parse(e.data));
    const text = data
      .filter((d) => d.delta?.type === 'text_delta')
      .map((d) => d.delta.text)
      .join('');
    const json = data
      .filter((d) => d.delta?.type === 'input_json_delta')
      .map((d) => d.delta.partial_json)
      .join('');
    assert.equal(text, 'Checking.');
    assert.deepEqual(JSON.parse(json), { order: 'A1', amount: 5 });
    const delta = data.find((d) => d.type === 'message_delta');
    assert.equal(delta.delta.stop_reason, 'tool_use');
    assert.ok(delta.usage.output_tokens > 0);
  });

  it('uses the Anthropic error format', async () => {
    llm.queueFaults(429);
    const res = await post(`${llm.url}/v1/messages`, request('hello'));
    assert.equal(res.status, 429);
    assert.deepEqual(Object.keys(await res.json()), ['type', 'error']);
  });
});
