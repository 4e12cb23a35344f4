import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FakeLlm } from '@agentest/fake-llm';
import { ask, runCases } from './helpers.js';
import { body, shopApp, shopHarness as h, startShopModel } from './mcp-shop.js';

let fake: FakeLlm;
before(async () => (fake = await startShopModel()));
after(() => fake.close());
const app = (files: Record<string, string | object> = {}) => shopApp(fake, files);

describe('MCP tools and the automatic tool loop', () => {
  it('offers the allowed tools, runs the process behind a call, and feeds its result back until the model answers', async () => {
    const root = app();
    const from = fake.requests.length;
    const runs = await runCases(
      root,
      'shop',
      [
        {
          input: 'price of apples?',
          assert: [
            { type: 'tool_called', value: 'price' },
            { type: 'tool_result', value: { tool: 'price', result: { item: 'apple', price: 3 } } },
            { type: 'contains', value: 'final: {"item":"apple","price":3}' },
          ],
        },
      ],
      { env: { FAKE_KEY: 'k' } },
    );
    const run = runs.get('price of apples?')!;
    assert.equal(run.status, 'passed', run.error);
    assert.equal(run.output, 'final: {"item":"apple","price":3}');
    assert.deepEqual(
      run.tool_calls?.map(({ id, ...call }) => call),
      [
        {
          server: 'agents.shop.catalog',
          name: 'agents_shop_catalog__price',
          arguments: { item: 'apple' },
          result: { item: 'apple', price: 3 },
        },
      ],
    );
    const [first, second] = fake.requests.slice(from);
    assert.deepEqual(
      body(first!).tools?.map((t) => [t.function.name, t.function.description]),
      [
        ['agents_shop_catalog__price', 'Price of an item'],
        ['agents_shop_catalog__broken', 'Always fails'],
      ],
    );
    const sent = body(second!).messages;
    const callId = run.tool_calls![0]!.id;
    assert.deepEqual(sent.at(-2), {
      role: 'assistant',
      content: '',
      tool_calls: [
        {
          id: callId,
          type: 'function',
          function: { name: 'agents_shop_catalog__price', arguments: '{"item":"apple"}' },
        },
      ],
    });
    assert.deepEqual(sent.at(-1), { role: 'tool', tool_call_id: callId, content: '{"item":"apple","price":3}' });
    assert.equal(run.trace?.llm_calls, 2);
  });

  it("sends a throwing tool's error back to the model as the tool's answer, and records it", async () => {
    const reply = await ask(await h().resolve({ id: 'shop' }, app()), 'is it broken?');
    // The sandbox adds where the script threw, as it does for hooks.
    assert.match(
      String(reply.content),
      /^final: Error: Error executing tool broken: catalog offline \(at .*catalog\.ts:2:\d+\)$/,
    );
    assert.match(
      reply.toolCalls?.[0]?.error ?? '',
      /^Error executing tool broken: catalog offline \(at .*catalog\.ts:2:\d+\)$/,
    );
    assert.equal(reply.toolCalls?.[0]?.result, undefined);
  });

  it('runs several calls of one reply, each answered by its own tool message', async () => {
    const reply = await ask(await h().resolve({ id: 'shop' }, app()), 'both please');
    assert.match(
      String(reply.content),
      /^final: \{"item":"pear","price":4\} \| Error: Error executing tool broken: catalog offline/,
    );
    assert.deepEqual(
      reply.toolCalls?.map((c) => c.name),
      ['agents_shop_catalog__price', 'agents_shop_catalog__broken'],
    );
  });

  it('refuses a tool the model was not offered, telling the model which ones it has', async () => {
    const reply = await ask(await h().resolve({ id: 'shop' }, app()), 'tell me the secret');
    const error =
      'tool "agents_shop_catalog__secret" was not offered to the model (offered: agents_shop_catalog__price, agents_shop_catalog__broken); package.yao "mcp.servers" decides which tools it gets';
    assert.equal(reply.toolCalls?.[0]?.error, error);
    assert.equal(reply.content, `final: Error: ${error}`);
  });

  it('stops after mcp.options.max_turn more LLM calls, keeping the tool calls on the case', async () => {
    const root = app({
      'assistants/shop/package.yao': {
        connector: 'fake',
        mcp: { servers: ['agents.shop.catalog'], options: { max_turn: 2 } },
      },
    });
    const from = fake.requests.length;
    const runs = await runCases(root, 'shop', ['forever'], { env: { FAKE_KEY: 'k' } });
    const run = runs.get('forever')!;
    assert.equal(run.status, 'error');
    assert.match(
      run.error!,
      /^tool loop reached max turns \(2\): the model still asked for tools after 3 tool call\(s\)\. .*raise "mcp\.options\.max_turn" in package\.yao/,
    );
    assert.equal(fake.requests.length - from, 3, 'the first call and two more');
    assert.equal((run.trace?.tool_calls as unknown[]).length, 3);
    assert.equal(run.trace?.llm_calls, 3);
  });

  it('runs the tools before a Next hook, which sees them in payload.tools, and does not loop', async () => {
    const root = app({
      'assistants/shop/src/index.ts': `export function Next(ctx: any, payload: any) {
        return { data: { tools: payload.tools, asked: payload.completion.tool_calls.length } };
      }`,
    });
    const from = fake.requests.length;
    const reply = await ask(await h().resolve({ id: 'shop' }, root), 'price of apples?');
    assert.equal(fake.requests.length - from, 1, 'no second LLM call');
    const { tools, asked } = reply.content as { tools: Array<Record<string, unknown>>; asked: number };
    assert.equal(asked, 1);
    assert.deepEqual(
      tools.map(({ toolcall_id, ...t }) => t),
      [
        {
          server: 'agents.shop.catalog',
          tool: 'price',
          arguments: '{"item":"apple"}',
          result: { item: 'apple', price: 3 },
        },
      ],
    );
    assert.equal(reply.toolCalls?.[0]?.result && (reply.toolCalls[0].result as { price: number }).price, 3);
  });

  it('turns the loop off with mcp.options.tool_loop: false', async () => {
    const root = app({
      'assistants/shop/package.yao': {
        connector: 'fake',
        mcp: { servers: ['agents.shop.catalog'], options: { tool_loop: false } },
      },
    });
    const from = fake.requests.length;
    const reply = await ask(await h().resolve({ id: 'shop' }, root), 'price of apples?');
    assert.equal(fake.requests.length - from, 1);
    assert.equal(reply.content, null);
    assert.deepEqual(reply.toolCalls?.[0]?.result, { item: 'apple', price: 3 });
  });
});
