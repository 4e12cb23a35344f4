// The shop assistant of the MCP tests: its catalogue server, backed by its own scripts, and a model that calls it.
import { startFakeLlm, type FakeLlm, type RecordedRequest } from '@agentest/fake-llm';
import type { Message } from '@agentest/kernel';
import { harness, openaiConnector, writeTree } from './helpers.js';

export interface ChatBody {
  messages: Message[];
  tools?: Array<{ type: string; function: { name: string; description: string; parameters: Record<string, unknown> } }>;
}

export const body = (request: RecordedRequest) => request.body as ChatBody;
const toolMessages = (request: RecordedRequest) => body(request).messages.filter((m) => m.role === 'tool');

/** A model that asks for the shop's tools when the question names them, and answers with their results. */
export function startShopModel(): Promise<FakeLlm> {
  return startFakeLlm({
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
}

const schema = (description: string, extra: Record<string, unknown> = {}) => ({
  type: 'object',
  description,
  properties: { item: { type: 'string' } },
  ...extra,
});

/** An assistant with no prompts whose only LLM reason is its MCP server `agents.shop.catalog`. */
export function shopApp(fake: FakeLlm, files: Record<string, string | object> = {}) {
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

export function shopHarness() {
  return harness({ env: { FAKE_KEY: 'k' } });
}
