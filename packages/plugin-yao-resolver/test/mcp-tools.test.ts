import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startFakeLlm, type FakeLlm, type RecordedRequest } from '@agentest/fake-llm';
import type { Message } from '@agentest/kernel';
import { ask, harness, openaiConnector, runCases, writeTree } from './helpers.js';

interface ChatBody {
  messages: Message[];
  tools?: Array<{ type: string; function: { name: string; description: string; parameters: Record<string, unknown> } }>;
}

const body = (request: RecordedRequest) => request.body as ChatBody;
const toolMessages = (request: RecordedRequest) => body(request).messages.filter((m) => m.role === 'tool');

let fake: FakeLlm;
before(async () => {
  fake = await startFakeLlm({
    rules: [
      // A model that never stops asking for tools, for the turn limit.
      {
        match: /forever/,
        reply: { text: '', toolCalls: [{ name: 'agents_shop_catalog__price', arguments: { item: 'apple' } }] },
      },
      // Once tool results are in the conversation, the model answers with what they said.
      {
        match: ({ request }) => toolMessages(request).length > 0,
        reply: ({ request }) =>
          `final: ${toolMessages(request)
            .map((m) => m.content)
            .join(' | ')}`,
      },
      {
        match: /price/,
        reply: { text: '', toolCalls: [{ name: 'agents_shop_catalog__price', arguments: { item: 'apple' } }] },
      },
      { match: /broken/, reply: { text: '', toolCalls: [{ name: 'agents_shop_catalog__broken', arguments: {} }] } },
      { match: /secret/, reply: { text: '', toolCalls: [{ name: 'agents_shop_catalog__secret', arguments: {} }] } },
      {
        match: /both/,
        reply: {
          text: 'checking',
          toolCalls: [
            { name: 'agents_shop_catalog__price', arguments: { item: 'pear' } },
            { name: 'agents_shop_catalog__broken', arguments: {} },
          ],
        },
      },
    ],
    default: 'no tools needed',
  });
});
after(() => fake.close());

const schema = (description: string, extra: Record<string, unknown> = {}) => ({
  type: 'object',
  description,
  properties: { item: { type: 'string' } },
  ...extra,
});

/** An assistant with no prompts whose only LLM reason is its MCP server `agents.shop.catalog`. */
function app(files: Record<string, string | object> = {}) {
  return writeTree({
    'app.yao': '{}',
    'connectors/fake.conn.yao': openaiConnector(fake.url),
    'assistants/shop/package.yao': {
      connector: 'fake',
      mcp: { servers: [{ server_id: 'agents.shop.catalog', tools: ['price', 'broken'] }] },
    },
    'assistants/shop/mcps/catalog.mcp.yao': `// the shop's catalogue, backed by its own scripts
      { "label": "Catalog", "transport": "process", "tools": {
        "price": "agents.shop.catalog.Price", "broken": "agents.shop.catalog.Broken", "secret": "agents.shop.catalog.Secret", } }`,
    'assistants/shop/mcps/mapping/catalog/schemes/price.in.yao': schema('Price of an item', {
      'x-process-args': ['$args.item'],
    }),
    'assistants/shop/mcps/mapping/catalog/schemes/broken.in.yao': schema('Always fails'),
    'assistants/shop/mcps/mapping/catalog/schemes/secret.in.yao': schema('Not for the model'),
    'assistants/shop/src/catalog.ts': `export function Price(item: string) { return { item, price: ({ apple: 3, pear: 4 } as any)[item] ?? 0 }; }
      export function Broken() { throw new Error('catalog offline'); }
      export function Secret() { return 'classified'; }`,
    ...files,
  });
}

function h() {
  return harness({ env: { FAKE_KEY: 'k' } });
}

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

  it('stops the run for a server nobody defines, a tool without an input schema or a server that will not start, naming the file', async () => {
    const shortId = app({ 'assistants/shop/package.yao': { connector: 'fake', mcp: { servers: ['catalog'] } } });
    await assert.rejects(
      h().resolve({ id: 'shop' }, shortId),
      /package\.yao names MCP server "catalog", which is not defined; the assistant's own mcps\/ servers are registered as "agents\.shop\.catalog", use that id/,
    );
    const noSchema = app({
      'assistants/shop/mcps/catalog.mcp.yao': {
        transport: 'process',
        tools: { price: 'agents.shop.catalog.Price', stock: 'agents.shop.catalog.Stock' },
      },
    });
    await assert.rejects(
      h().resolve({ id: 'shop' }, noSchema),
      /catalog\.mcp\.yao: tool "stock" has no input schema; Yao needs .*mapping[/\\]catalog[/\\]schemes[/\\]stock\.in\.yao/,
    );
    const stdio = app({
      'mcps/github.mcp.yao': { transport: 'stdio', command: 'github-mcp' },
      'assistants/shop/package.yao': { connector: 'fake', mcp: { servers: ['github'] } },
    });
    await assert.rejects(
      h().resolve({ id: 'shop' }, stdio),
      /github\.mcp\.yao: MCP server "github" could not be reached \(starting "github-mcp"\): spawn github-mcp ENOENT/,
    );
  });

  it("shows the model a tool's samples in a system message between the prompts and the conversation", async () => {
    const root = app({
      'assistants/shop/prompts.yml': '- role: system\n  content: You sell fruit.\n',
      // Yao reads samples from the app's mcps/mapping, even for an assistant's own server.
      'mcps/mapping/agents/shop/catalog/schemes/price.jsonl': [
        JSON.stringify({
          name: 'apple',
          input: { item: 'apple' },
          output: { item: 'apple', price: 3 },
          metadata: { description: 'A known item' },
        }),
        'not json',
        JSON.stringify({ input: { item: 'kiwi' } }),
      ].join('\n'),
    });
    const from = fake.requests.length;
    await ask(await h().resolve({ id: 'shop' }, root), 'hello');
    const [prompt, samples, question] = body(fake.requests[from]!).messages;
    assert.deepEqual([prompt?.content, question?.content], ['You sell fruit.', 'hello']);
    assert.equal(samples?.role, 'system');
    assert.equal(
      samples?.content,
      [
        '\n\n## MCP Tool Usage Examples\n\nThe following examples demonstrate how to use MCP tools correctly:\n\n',
        '### agents_shop_catalog__price\n\n**Description**: Price of an item\n\n',
        '**Example 1 - apple**:\n- Description: A known item\n- Input: `map[item:apple]`\n- Output: `map[item:apple price:3]`\n\n',
        '**Example 2**:\n- Input: `map[item:kiwi]`\n\n',
      ].join(''),
    );
  });

  it("takes app-level servers from mcps/, and a Create hook's mcp_servers for one call", async () => {
    const root = app({
      'mcps/text/shout.mcp.yao': { transport: 'process', tools: { shout: 'scripts.text.Shout' } },
      'mcps/mapping/text/shout/schemes/shout.in.yao': {
        type: 'object',
        description: 'Upper-cases text',
        properties: { text: { type: 'string' } },
        'x-process-args': ['$text'],
      },
      'scripts/text.ts': 'export function Shout(text: string) { return text.toUpperCase(); }',
      'assistants/shop/src/index.ts': `export function Create(ctx: any, messages: any[]) {
        return ctx.metadata.loud ? { mcp_servers: [{ server_id: 'text.shout' }] } : null;
      }`,
    });
    const agent = await h().resolve({ id: 'shop' }, root);
    const from = fake.requests.length;
    await ask(agent, 'anything', {}, { loud: true });
    assert.deepEqual(
      body(fake.requests[from]!).tools?.map((t) => t.function.name),
      ['text_shout__shout'],
    );
    await ask(agent, 'anything');
    assert.deepEqual(
      body(fake.requests[from + 1]!).tools?.map((t) => t.function.name),
      ['agents_shop_catalog__price', 'agents_shop_catalog__broken'],
    );
    const refused = await ask(agent, 'tell me the secret', {}, { loud: true });
    assert.match(
      refused.toolCalls?.[0]?.error ?? '',
      /was not offered to the model \(offered: text_shout__shout\); "mcp_servers" from the Create hook of .*assistants\/shop\/src\/index\.ts decides which tools it gets$/,
    );
  });
});
