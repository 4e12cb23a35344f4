import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { test } from 'node:test';
import { createChatClient } from '../src/index.js';
import { anthropicConfig, openaiConfig, user, withFake } from './helpers.js';

test('many calls on one signal leave no abort listener behind (a simulated conversation makes a dozen)', async () => {
  await withFake({ default: 'ok' }, async (llm) => {
    for (const config of [openaiConfig(llm), anthropicConfig(llm), openaiConfig(llm, { stream: true })]) {
      const client = createChatClient('fake', config, {});
      const run = new AbortController();
      for (let i = 0; i < 12; i++) await client.chat({ messages: user(`turn ${i}`) }, run.signal);
      assert.equal(getEventListeners(run.signal, 'abort').length, 0, JSON.stringify(config.options));
    }
  });
});

test('a call on an aborted signal still ends with the abort', async () => {
  await withFake({ default: 'ok', latencyMs: 5_000 }, async (llm) => {
    const client = createChatClient('fake', openaiConfig(llm), {});
    const run = new AbortController();
    const pending = client.chat({ messages: user('slow') }, run.signal);
    run.abort(new Error('deadline'));
    await assert.rejects(pending);
    assert.equal(getEventListeners(run.signal, 'abort').length, 0);
  });
});
