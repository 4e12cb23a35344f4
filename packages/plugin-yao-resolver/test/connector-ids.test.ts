import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { connectorId } from '../src/index.js';
import { harness, writeTree } from './helpers.js';

describe('connector ids', () => {
  it("follows Yao's naming rules", () => {
    assert.equal(connectorId('openai/gpt-4o.conn.yao'), 'openai.gpt-4o');
    assert.equal(connectorId('deepseek/v3.conn.yao'), 'deepseek.v3');
    assert.equal(connectorId('gpt-4o.conn.yao'), 'gpt-4o');
    assert.equal(connectorId('claude/sonnet-3.5.conn.yao'), 'claude.sonnet-3_5');
    assert.equal(connectorId('vendor.cn/glm-4.7.conn.jsonc'), 'vendor_cn.glm-4_7');
    assert.equal(connectorId('local/llama.json'), 'local.llama');
  });

  it('rejects an unknown -c before any case runs, listing the known ids', async () => {
    const root = writeTree({
      'app.yao': '{}',
      'assistants/bot/package.yao': '{}',
      'connectors/openai/gpt-4o.conn.yao': '{ "type": "openai", "options": { "model": "gpt-4o", "key": "x", }, }',
    });
    await assert.rejects(
      harness().resolve({ id: 'bot', connector: 'openai.gpt4' }, root),
      (error: Error & { code?: string }) => {
        assert.equal(error.code, 'CONNECTOR_NOT_FOUND');
        assert.match(
          error.message,
          /-c names connector "openai\.gpt4", which is not defined \(known: openai\.gpt-4o\)/,
        );
        assert.doesNotMatch(error.message, /pass -c/, 'no advice to pass -c to whoever passed it');
        return true;
      },
    );
  });

  it('suggests -c for a package.yao connector nobody defines (a real app\'s "default")', async () => {
    const root = writeTree({
      'app.yao': '{}',
      'assistants/bot/package.yao': '{ "connector": "default" }',
      'assistants/bot/prompts.yml': '- role: system\n  content: hi\n',
      'connectors/openai/gpt-4o.conn.yao': '{ "type": "openai", "options": { "model": "gpt-4o", "key": "x" } }',
    });
    await assert.rejects(
      harness().resolve({ id: 'bot' }, root),
      /package\.yao names connector "default", which is not defined \(known: openai\.gpt-4o\); add connectors\/default\.conn\.yao or a "connectors" entry in the config, or pass -c openai\.gpt-4o to use another for this run$/,
    );
  });

  it('rejects a connector file without a type', async () => {
    const root = writeTree({
      'app.yao': '{}',
      'assistants/bot/package.yao': '{}',
      'connectors/x.conn.yao': '{ "options": {} }',
    });
    await assert.rejects(
      harness().resolve({ id: 'bot' }, root),
      /connectors\/x\.conn\.yao: a connector needs a "type"/,
    );
  });
});
