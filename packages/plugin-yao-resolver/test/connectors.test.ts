import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startFakeLlm, type FakeLlm } from '@agentest/fake-llm';
import { ask, harness, openaiConnector, writeTree } from './helpers.js';

let fake: FakeLlm;
before(async () => {
  fake = await startFakeLlm({ rules: [{ match: /./, reply: (input) => `model=${input.request.model}` }] });
});
after(() => fake.close());

function app() {
  return writeTree({
    'app.yao': '{}',
    'assistants/bot/package.yao': '{ "connector": "fake.a" }',
    'assistants/bot/prompts.yml': '- role: system\n  content: Answer.\n',
    'connectors/fake/a.conn.yao': JSON.stringify(openaiConnector(fake.url, { model: 'model-a' })).replace('}}', '},}'),
    'connectors/fake/b.conn.yao': JSON.stringify(openaiConnector(fake.url, { model: 'model-b' })),
  });
}

describe('connectors', () => {
  it('discovers connectors/**/*.conn.yao and calls <host>/v1/chat/completions', async () => {
    const root = app();
    const agent = await harness({ env: { FAKE_KEY: 'k' } }).resolve({ id: 'bot' }, root);
    assert.equal(agent?.connector, 'fake.a');
    assert.equal((await ask(agent, 'hi')).content, 'model=model-a');
    assert.equal(fake.requests.at(-1)!.path, '/v1/chat/completions');
    assert.equal(fake.requests.at(-1)!.headers.authorization, 'Bearer k');
  });

  it('uses the host verbatim when it ends with "/"', async () => {
    const root = writeTree({
      'app.yao': '{}',
      'assistants/bot/package.yao': '{ "connector": "proxy" }',
      'assistants/bot/prompts.yml': '- role: system\n  content: Answer.\n',
      'connectors/proxy.conn.yao': JSON.stringify(openaiConnector(`${fake.url}/v1/`)),
    });
    await ask(await harness({ env: { FAKE_KEY: 'k' } }).resolve({ id: 'bot' }, root), 'hi');
    assert.equal(fake.requests.at(-1)!.path, '/v1/chat/completions');
  });

  it("lets the config's connectors win over files with the same id", async () => {
    const root = app();
    const agent = await harness({
      env: { FAKE_KEY: 'k' },
      connectors: { 'fake.a': openaiConnector(fake.url, { model: 'from-config' }) },
    }).resolve({ id: 'bot' }, root);
    assert.equal((await ask(agent, 'hi')).content, 'model=from-config');
  });

  it('orders connector choices: Create hook > -c > case options.connector > package.yao', async () => {
    const root = app();
    const h = harness({ env: { FAKE_KEY: 'k' } });
    const plain = await h.resolve({ id: 'bot' }, root);
    assert.equal(
      (await ask(plain, 'hi', { connector: 'fake.b' })).content,
      'model=model-b',
      'case option beats package.yao',
    );
    const overridden = await h.resolve({ id: 'bot', connector: 'fake.b' }, root);
    assert.equal(overridden?.connector, 'fake.b');
    assert.equal(
      (await ask(overridden, 'hi', { connector: 'fake.a' })).content,
      'model=model-b',
      '-c beats the case option',
    );
  });

  it('fails before the run when the API key variable is unset, naming it', async () => {
    const root = app();
    await assert.rejects(harness({ env: {} }).resolve({ id: 'bot' }, root), (error: Error & { code?: string }) => {
      assert.equal(error.code, 'SECRET_MISSING');
      assert.match(error.message, /FAKE_KEY/);
      assert.match(error.message, /connectors\/fake\/a\.conn\.yao/);
      return true;
    });
  });

  it('fails before the run when package.yao names an unknown connector', async () => {
    const root = writeTree({
      'app.yao': '{}',
      'assistants/bot/package.yao': '{ "connector": "nope" }',
      'assistants/bot/prompts.yml': '- role: system\n  content: x\n',
    });
    await assert.rejects(
      harness().resolve({ id: 'bot' }, root),
      /package\.yao names connector "nope", which is not defined \(no connectors are defined\)/,
    );
  });

  it('makes a case error of a case connector that does not exist', async () => {
    const root = app();
    const agent = await harness({ env: { FAKE_KEY: 'k' } }).resolve({ id: 'bot' }, root);
    await assert.rejects(
      ask(agent, 'hi', { connector: 'fake.zzz' }),
      /names connector "fake\.zzz", which is not defined \(known: fake\.a, fake\.b\)/,
    );
  });

  it('runs offline with a mock connector', async () => {
    const root = writeTree({
      'app.yao': '{}',
      'assistants/bot/package.yao': '{ "connector": "mock.bot" }',
      'assistants/bot/prompts.yml': '- role: system\n  content: x\n',
      'connectors/mock/bot.conn.yao':
        '{ "type": "mock", "options": { "replies": [{ "match": "weather", "reply": "sunny" }], "default": "no idea" } }',
    });
    const agent = await harness().resolve({ id: 'bot' }, root);
    assert.equal((await ask(agent, 'what is the weather?')).content, 'sunny');
    assert.equal((await ask(agent, 'hello')).content, 'no idea');
  });
});
