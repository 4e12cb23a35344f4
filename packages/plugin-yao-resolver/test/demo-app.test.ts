import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import type { Message } from '@agentest/kernel';
import { ask, context, harness } from './helpers.js';

const APP = fileURLToPath(new URL('../../../examples/app', import.meta.url));

/** The offline demo app as shipped: hooks, prompts and the scripted `mock.keyword` connector. */
describe('examples/app keyword assistant', () => {
  const h = harness({ env: {} });
  const keyword = () => h.resolve({ id: 'keyword' }, APP);

  it('resolves with its mock connector and no secrets', async () => {
    const agent = await keyword();
    assert.equal(agent?.connector, 'mock.keyword');
  });

  it("turns the model's JSON (object or fenced text) into the output", async () => {
    const agent = await keyword();
    assert.deepEqual((await ask(agent, 'Compare the weather forecast for Paris and Berlin')).content, {
      keywords: ['weather', 'forecast', 'Paris', 'Berlin'],
      need_search: true,
      confidence: 0.93,
    });
    assert.deepEqual((await ask(agent, 'How does the Rust borrow checker work?')).content, {
      keywords: ['Rust', 'borrow checker', 'lifetimes'],
      need_search: false,
      confidence: 0.91,
    });
  });

  it('leaves plain-text answers as the output', async () => {
    assert.equal(
      (await ask(await keyword(), 'Summarise the invoice')).content,
      'Keywords: invoice, payment terms, net 30',
    );
  });

  it("keeps the model's tool calls on the reply", async () => {
    const reply = await ask(await keyword(), 'Please find the latest papers on LLM evaluation');
    assert.deepEqual(
      reply.toolCalls?.map((c) => c.name),
      ['web_search'],
    );
  });

  it('reads content parts and honours options.metadata.max_keywords', async () => {
    const agent = await keyword();
    const messages: Message[] = [{ role: 'user', content: [{ type: 'text', text: 'quantum computing and qubits' }] }];
    const reply = await agent!.run(messages, context(), new AbortController().signal, {
      options: { metadata: { max_keywords: 2 } },
    });
    assert.deepEqual((reply.content as { keywords: string[] }).keywords, ['quantum computing', 'qubits']);
    assert.deepEqual(reply.trace?.create, {
      messages: [{ role: 'system', content: 'Return at most 2 keywords.' }, ...messages],
      metadata: { max_keywords: 2 },
    });
  });
});
