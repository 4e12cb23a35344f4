import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AgentestError } from '@agentest/kernel';
import { redactText } from '@agentest/kernel/secrets';
import { buildApiUrl, createChatClient, expandEnv } from '../src/index.js';
import { never, user, withFake } from './helpers.js';

const code = (fn: () => unknown): string => {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof AgentestError, `expected an AgentestError, got ${error}`);
    return `${error.code}: ${error.message}`;
  }
  return 'no error';
};

describe('expandEnv', () => {
  it('replaces a whole $ENV.NAME value, gives "" when unset, leaves anything else alone', () => {
    const env = { API_KEY: 'sk-1' };
    assert.equal(expandEnv('$ENV.API_KEY', env), 'sk-1');
    assert.equal(expandEnv('$ENV.MISSING', env), '');
    assert.equal(expandEnv('prefix $ENV.API_KEY', env), 'prefix $ENV.API_KEY');
    assert.equal(expandEnv('gpt-4o', env), 'gpt-4o');
  });
});

describe('buildApiUrl', () => {
  it('inserts /v1 unless the host ends with a slash', () => {
    assert.equal(
      buildApiUrl('https://api.deepseek.com', '/chat/completions'),
      'https://api.deepseek.com/v1/chat/completions',
    );
    assert.equal(
      buildApiUrl('https://proxy.example/openai/', '/chat/completions'),
      'https://proxy.example/openai/chat/completions',
    );
    assert.equal(
      buildApiUrl('http://127.0.0.1:11434', 'chat/completions'),
      'http://127.0.0.1:11434/v1/chat/completions',
    );
    assert.equal(buildApiUrl('https://api.openai.com', ''), 'https://api.openai.com/v1');
  });
});

describe('createChatClient: validation before any call', () => {
  it('names the unset variable of a $ENV key (SECRET_MISSING)', () => {
    const message = code(() =>
      createChatClient(
        'openai.gpt4o',
        { type: 'openai', options: { model: 'gpt-4o', key: '$ENV.OPENAI_TEST_KEY' } },
        {},
      ),
    );
    assert.match(message, /^SECRET_MISSING: .*OPENAI_TEST_KEY is not set/);
  });

  it('registers the key and credential headers as secrets, expanding $ENV. header values', () => {
    const env = { GATEWAY_TOKEN: 'gw-token-0123456789', TEST_KEY: 'sk-config-test-0123456789' };
    createChatClient(
      'gw',
      {
        type: 'openai',
        model: 'm',
        host: 'http://127.0.0.1:9',
        key: '$ENV.TEST_KEY',
        headers: {
          'X-Gateway': '$ENV.GATEWAY_TOKEN',
          Authorization: 'Bearer literal-token-0123456789',
          'X-Trace': 'plain-value-0123456789',
        },
      },
      env,
    );
    assert.equal(
      redactText(
        'k=sk-config-test-0123456789 g=gw-token-0123456789 a=literal-token-0123456789 t=plain-value-0123456789',
      ),
      'k=[redacted] g=[redacted] a=[redacted] t=plain-value-0123456789',
    );
    assert.match(
      code(() =>
        createChatClient(
          'gw2',
          { type: 'openai', model: 'm', host: 'http://127.0.0.1:9', headers: { 'X-Gateway': '$ENV.UNSET_GATEWAY' } },
          {},
        ),
      ),
      /^SECRET_MISSING: connector "gw2": header X-Gateway is "\$ENV\.UNSET_GATEWAY" but UNSET_GATEWAY is not set/,
    );
  });

  it('requires a key for the vendor hosts, not for local servers', () => {
    assert.match(
      code(() => createChatClient('a', { type: 'openai', model: 'gpt-4o' }, {})),
      /^SECRET_MISSING: .*api\.openai\.com/,
    );
    assert.match(
      code(() => createChatClient('b', { type: 'anthropic', model: 'claude' }, {})),
      /^SECRET_MISSING: .*api\.anthropic\.com/,
    );
    assert.equal(
      code(() =>
        createChatClient(
          'ollama',
          { type: 'openai', options: { host: 'http://127.0.0.1:11434', model: 'llama3' } },
          {},
        ),
      ),
      'no error',
    );
  });

  it("does not read the SDKs' own environment variables for the key", () => {
    assert.match(
      code(() => createChatClient('a', { type: 'openai', model: 'gpt-4o' }, { OPENAI_API_KEY: 'sk-from-env' })),
      /SECRET_MISSING/,
    );
  });

  it('rejects unknown types, a missing type or model, bad option types and unset $ENV hosts', () => {
    assert.match(
      code(() => createChatClient('x', { type: 'mysql' })),
      /^CONNECTOR_INVALID: connector "x" has type "mysql", which cannot chat/,
    );
    assert.match(
      code(() => createChatClient('x', {} as never)),
      /^CONNECTOR_INVALID: connector "x" has no "type"/,
    );
    assert.match(
      code(() => createChatClient('x', { type: 'openai', options: { host: 'http://h' } })),
      /^CONNECTOR_INVALID: .*has no model/,
    );
    assert.match(
      code(() =>
        createChatClient('x', { type: 'openai', options: { host: 'http://h', model: 'm', temperature: 'hot' } }),
      ),
      /^CONNECTOR_INVALID: .*temperature/,
    );
    assert.match(
      code(() => createChatClient('x', { type: 'openai', options: { host: '$ENV.LLM_HOST', model: 'm' } }, {})),
      /^CONNECTOR_INVALID: .*LLM_HOST is not set/,
    );
    assert.match(
      code(() => createChatClient('x', { type: 'openai', options: { host: 'not a url', model: 'm' } })),
      /^CONNECTOR_INVALID: .*is not a URL/,
    );
  });

  it('expands $ENV in host, model and key, and settings may sit at the top level (proxy alias too)', async () => {
    await withFake({ apiKey: 'sk-from-env', echo: true }, async (llm) => {
      const env = { LLM_HOST: llm.url, LLM_MODEL: 'deepseek-chat', LLM_KEY: 'sk-from-env' };
      const client = createChatClient(
        'deepseek.v3',
        { type: 'openai', proxy: '$ENV.LLM_HOST', model: '$ENV.LLM_MODEL', key: '$ENV.LLM_KEY' },
        env,
      );
      assert.equal(client.model, 'deepseek-chat');
      const reply = await client.chat({ messages: user('hello') }, never());
      assert.equal(reply.text, 'hello');
      const request = llm.requests.at(-1)!;
      assert.equal(request.path, '/v1/chat/completions', 'the /v1 rule applied to the expanded host');
      assert.equal(request.model, 'deepseek-chat');
      assert.equal(request.headers.authorization, 'Bearer sk-from-env');
    });
  });

  it('uses a host with a trailing slash verbatim', async () => {
    await withFake({ echo: true }, async (llm) => {
      const client = createChatClient('local', { type: 'openai', options: { host: `${llm.url}/`, model: 'm' } }, {});
      await client.chat({ messages: user('hi') }, never());
      assert.equal(llm.requests.at(-1)!.path, '/chat/completions');
    });
  });
});
