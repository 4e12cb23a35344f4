import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { harness, writeTree } from './helpers.js';

describe('package.yao', () => {
  it("accepts comments and trailing commas, as Yao's loader does", async () => {
    const root = writeTree({
      'app.yao': '{}',
      'assistants/bot/package.yao': `{
        // the display name
        "name": "Bot", /* block comment */
        "options": { "temperature": 0.2, },
      }`,
    });
    const agent = await harness().resolve({ id: 'bot' }, root);
    assert.equal(agent?.id, 'bot');
  });

  it('names the file, line and column of a syntax error', async () => {
    const root = writeTree({
      'app.yao': '{}',
      'assistants/bot/package.yao': '{\n  "name": "Bot"\n  "connector": "x"\n}',
    });
    await assert.rejects(harness().resolve({ id: 'bot' }, root), (error: Error & { code?: string }) => {
      assert.equal(error.code, 'CONFIG_INVALID');
      assert.match(error.message, /assistants\/bot\/package\.yao:3:3: invalid JSON \(expected ","\)/);
      return true;
    });
  });

  it('expands $ENV. in connector, and keeps the text when the variable is unset', async () => {
    const root = writeTree({
      'app.yao': '{}',
      'assistants/a/package.yao': '{ "connector": "$ENV.BOT_CONNECTOR" }',
      'assistants/b/package.yao': '{ "connector": "$ENV.UNSET_CONNECTOR" }',
    });
    const h = harness({ env: { BOT_CONNECTOR: 'openai.gpt-4o' } });
    assert.equal((await h.resolve({ id: 'a' }, root))?.connector, 'openai.gpt-4o');
    assert.equal((await h.resolve({ id: 'b' }, root))?.connector, '$ENV.UNSET_CONNECTOR');
  });

  it('rejects options that are not an object', async () => {
    const root = writeTree({ 'app.yao': '{}', 'assistants/bot/package.yao': '{ "options": [1] }' });
    await assert.rejects(harness().resolve({ id: 'bot' }, root), /package\.yao: "options" must be an object/);
  });

  it('reports a broken prompts.yml with its line', async () => {
    const root = writeTree({
      'app.yao': '{}',
      'assistants/bot/package.yao': '{}',
      'assistants/bot/prompts.yml': '- role: system\n  content: "unterminated\n',
    });
    await assert.rejects(harness().resolve({ id: 'bot' }, root), /prompts\.yml:\d+:\d+: invalid YAML/);
  });

  it('reports a missing @assets file', async () => {
    const root = writeTree({
      'app.yao': '{}',
      'assistants/bot/package.yao': '{}',
      'assistants/bot/prompts.yml': '- role: system\n  content: @assets/missing.md\n',
    });
    await assert.rejects(
      harness().resolve({ id: 'bot' }, root),
      /@assets\/missing\.md not found \(looked for .*assistants\/bot\/assets\/missing\.md\)/,
    );
  });
});
