import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startFakeLlm, type FakeLlm } from '@agentest/fake-llm';
import { ask, harness, openaiConnector, writeTree } from './helpers.js';

let fake: FakeLlm;
before(async () => {
  fake = await startFakeLlm({ echo: true });
});
after(() => fake.close());

function sentMessages(): { role: string; content: string }[] {
  return (fake.requests.at(-1)!.body as { messages: { role: string; content: string }[] }).messages;
}

function app(extra: Record<string, string> = {}) {
  return writeTree({
    'app.yao': '{}',
    'agent/prompts.yml': '- role: system\n  content: GLOBAL for $CTX.ASSISTANT_ID\n',
    'assistants/bot/package.yao': '{ "name": "Bot", "connector": "fake.gpt", "options": { "temperature": 0.3 } }',
    'assistants/bot/assets/rules.md': 'Rule one.\nRule two.',
    'assistants/bot/prompts.yml': [
      '- role: system',
      '  content: @assets/rules.md',
      '- role: system',
      '  name: vars',
      '  content: "year=$SYS.YEAR env=$ENV.DEMO_VAR unset=[$ENV.NOPE] user=$CTX.USER_ID locale=$CTX.LOCALE name=$CTX.ASSISTANT_NAME unknown=[$CTX.NOPE] keep=$SYS.NOPE"',
    ].join('\n'),
    'assistants/bot/prompts/chat/friendly.yml': '- role: system\n  content: Be friendly.\n',
    ...extra,
  });
}

function bot(options: Parameters<typeof harness>[0] = {}) {
  return harness({
    connectors: { 'fake.gpt': openaiConnector(fake.url) },
    env: { FAKE_KEY: 'k', DEMO_VAR: 'dv' },
    ...options,
  });
}

describe('prompts', () => {
  it('sends global prompts, the assistant prompts with @assets and variables, then the input', async () => {
    const root = app();
    const reply = await ask(await bot().resolve({ id: 'bot' }, root), 'hello');
    assert.equal(reply.content, 'hello', 'the echoed completion is the output');
    const year = String(new Date().getFullYear());
    assert.deepEqual(sentMessages(), [
      { role: 'system', content: 'GLOBAL for bot' },
      { role: 'system', content: 'Rule one.\nRule two.\n' },
      {
        role: 'system',
        name: 'vars',
        content: `year=${year} env=dv unset=[] user=test-user locale=en-us name=Bot unknown=[] keep=$SYS.NOPE`,
      },
      { role: 'user', content: 'hello' },
    ]);
    assert.equal(
      (fake.requests.at(-1)!.body as { temperature?: number }).temperature,
      0.3,
      'package.yao options reach the request',
    );
  });

  it('uses a preset chosen by ctx.metadata.__prompt_preset', async () => {
    const root = app();
    await ask(await bot().resolve({ id: 'bot' }, root), 'hi', {}, { __prompt_preset: 'chat.friendly' });
    assert.deepEqual(
      sentMessages().map((m) => m.content),
      ['GLOBAL for bot', 'Be friendly.', 'hi'],
    );
  });

  it("uses a preset chosen by the case's options.metadata", async () => {
    const root = app();
    await ask(await bot().resolve({ id: 'bot' }, root), 'hi', { metadata: { __prompt_preset: 'chat.friendly' } });
    assert.equal(sentMessages()[1]!.content, 'Be friendly.');
  });

  it('falls back to the assistant prompts for an unknown preset', async () => {
    const root = app();
    await ask(await bot().resolve({ id: 'bot' }, root), 'hi', {}, { __prompt_preset: 'chat.nope' });
    assert.equal(sentMessages()[1]!.content, 'Rule one.\nRule two.\n');
  });

  it('drops global prompts when package.yao disables them', async () => {
    const root = app({ 'assistants/bot/package.yao': '{ "connector": "fake.gpt", "disable_global_prompts": true }' });
    await ask(await bot().resolve({ id: 'bot' }, root), 'hi');
    assert.notEqual(sentMessages()[0]!.content, 'GLOBAL for bot');
  });

  it('lets ctx.metadata.__disable_global_prompts override package.yao, and the case option override both', async () => {
    const root = app({ 'assistants/bot/package.yao': '{ "connector": "fake.gpt", "disable_global_prompts": true }' });
    const agent = await bot().resolve({ id: 'bot' }, root);
    await ask(agent, 'hi', {}, { __disable_global_prompts: false });
    assert.equal(sentMessages()[0]!.content, 'GLOBAL for bot');
    await ask(agent, 'hi', { disable_global_prompts: true }, { __disable_global_prompts: false });
    assert.notEqual(sentMessages()[0]!.content, 'GLOBAL for bot');
  });

  it('skips the LLM for an assistant without prompts: the output is null', async () => {
    const root = writeTree({ 'app.yao': '{}', 'assistants/quiet/package.yao': '{ "connector": "fake.gpt" }' });
    const before = fake.requests.length;
    const reply = await ask(await bot().resolve({ id: 'quiet' }, root), 'hi');
    assert.equal(reply.content, null);
    assert.equal(fake.requests.length, before, 'no request reached the model');
  });

  it('reads inline prompts from package.yao when there is no prompts.yml', async () => {
    const root = writeTree({
      'app.yao': '{}',
      'assistants/inline/package.yao':
        '{ "connector": "fake.gpt", "disable_global_prompts": true, "prompts": [{ "role": "system", "content": "Inline for $CTX.ASSISTANT_ID" }] }',
    });
    await ask(await bot().resolve({ id: 'inline' }, root), 'hi');
    assert.deepEqual(
      sentMessages().map((m) => m.content),
      ['Inline for inline', 'hi'],
    );
  });
});
