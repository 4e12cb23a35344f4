import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FakeLlm } from '@agentest/fake-llm';
import { ask } from './helpers.js';
import { body, shopApp, shopHarness as h, startShopModel } from './mcp-shop.js';

let fake: FakeLlm;
before(async () => (fake = await startShopModel()));
after(() => fake.close());
const app = (files: Record<string, string | object> = {}) => shopApp(fake, files);

describe('MCP servers: where they come from, and what stops a run', () => {
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
