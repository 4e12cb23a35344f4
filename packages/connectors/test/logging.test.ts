import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { format } from 'node:util';
import { createChatClient, redactHeaders } from '../src/index.js';
import { log } from '../src/http-log.js';
import { anthropicConfig, never, openaiConfig, user, withFake } from './helpers.js';

describe('debug logging', () => {
  it('redacts credentials in logged headers', () => {
    assert.deepEqual(
      redactHeaders({ Authorization: 'Bearer sk-1', 'x-api-key': 'k', 'content-type': 'application/json' }),
      {
        authorization: '[redacted]',
        'x-api-key': '[redacted]',
        'content-type': 'application/json',
      },
    );
  });

  it('logs requests and retries without any key', async () => {
    const lines: string[] = [];
    const saved = { enabled: log.enabled, log: log.log };
    log.enabled = true;
    log.log = (...args: unknown[]) => void lines.push(format(...args));
    try {
      await withFake({ queue: [503] }, async (llm) => {
        await createChatClient('logged', openaiConfig(llm, { key: 'sk-openai-secret' }), {}).chat(
          { messages: user('hi') },
          never(),
        );
        await createChatClient('logged-a', anthropicConfig(llm, { key: 'sk-ant-secret' }), {}).chat(
          { messages: user('hi') },
          never(),
        );
      });
    } finally {
      log.enabled = saved.enabled;
      log.log = saved.log;
    }
    const text = lines.join('\n');
    assert.match(text, /logged → POST http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions/);
    assert.match(text, /retry 1/);
    assert.match(text, /\[redacted\]/);
    assert.doesNotMatch(text, /sk-openai-secret|sk-ant-secret/);
  });
});
