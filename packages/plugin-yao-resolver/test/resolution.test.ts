import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { deriveAgentId } from '../src/index.js';
import { harness, writeTree } from './helpers.js';

const hookOnly = { 'package.yao': '{ "name": "x" }' };

function app() {
  return writeTree({
    'app.yao': '{ "name": "demo" }',
    'assistants/keyword/package.yao': '{ "name": "keyword" }',
    'assistants/keyword/tests/inputs.jsonl': '{"id":"T1","input":"hi"}\n',
    'assistants/workers/system/keyword/package.yao': '{ "name": "nested" }',
    'assistants/workers/system/keyword/tests/deep/inputs.jsonl': '',
    'elsewhere/readme.md': '',
    ...Object.fromEntries(Object.entries(hookOnly).map(([k, v]) => [`assistants/plain/${k}`, v])),
  });
}

describe('resolution', () => {
  it('finds -n ids under assistants/, nested ids included', async () => {
    const root = app();
    const h = harness();
    const nested = await h.resolve({ id: 'workers.system.keyword' }, root);
    assert.equal(nested?.id, 'workers.system.keyword');
    assert.equal(nested?.path, join(root, 'assistants/workers/system/keyword'));
    assert.equal((await h.resolve({ id: 'keyword' }, join(root, 'elsewhere')))?.path, join(root, 'assistants/keyword'));
  });

  it('finds the app root from the input path when -n is given', async () => {
    const root = app();
    const agent = await harness().resolve(
      { id: 'plain', path: join(root, 'assistants/keyword/tests/inputs.jsonl') },
      '/',
    );
    assert.equal(agent?.id, 'plain');
  });

  it("finds -n ids in the working directory's app when the input lies outside any app", async () => {
    const root = app();
    const outside = writeTree({ 'cases.jsonl': '' });
    const agent = await harness().resolve({ id: 'keyword', path: join(outside, 'cases.jsonl') }, root);
    assert.equal(agent?.path, join(root, 'assistants/keyword'));
  });

  it('walks up from the input file to the nearest package.yao', async () => {
    const root = app();
    const agent = await harness().resolve(
      { path: join(root, 'assistants/workers/system/keyword/tests/deep/inputs.jsonl') },
      '/',
    );
    assert.equal(agent?.id, 'workers.system.keyword');
  });

  it('checks the working directory itself in message mode', async () => {
    const root = app();
    const dir = join(root, 'assistants/keyword');
    const agent = await harness().resolve({ path: dir }, dir);
    assert.equal(agent?.id, 'keyword');
  });

  it('uses the root option instead of searching', async () => {
    const root = app();
    const agent = await harness({ root }).resolve({ id: 'keyword' }, '/');
    assert.equal(agent?.id, 'keyword');
  });

  it('leaves ids that are not Yao assistants to other resolvers', async () => {
    const root = app();
    const h = harness();
    assert.equal(await h.resolve({ id: 'echo' }, '/'), undefined, 'no app root in sight');
    assert.equal(await h.resolve({ id: 'mock:./x.yaml' }, root), undefined, 'not an assistant id');
  });

  it('explains where it looked when an id matches nothing inside an app', async () => {
    const root = app();
    await assert.rejects(
      harness().resolve({ id: 'workers.system.keywrd' }, root),
      (error: Error & { code?: string }) => {
        assert.equal(error.code, 'AGENT_NOT_FOUND');
        assert.match(error.message, /assistants\/workers\/system\/keywrd\/package\.yao/);
        assert.match(error.message, /found by its app\.yao/);
        assert.match(error.message, /did you mean "workers\.system\.keyword"\?/);
        assert.match(error.message, /keyword, plain, workers\.system\.keyword/);
        return true;
      },
    );
  });

  it('lists the config agents next to the assistants, without telling a user who passed -n to pass it', async () => {
    const root = app();
    await assert.rejects(
      harness({ configAgents: ['support.bot', 'triage'] }).resolve({ id: 'nosuch' }, root),
      (error: Error) => {
        assert.match(
          error.message,
          /Use one of the assistants listed, a config agent \(support\.bot, triage\), or a built-in \(echo, mock\)\.$/,
        );
        assert.doesNotMatch(error.message, /pass -n/i);
        return true;
      },
    );
  });

  it('explains where it looked when no package.yao is above the input', async () => {
    const root = app();
    await assert.rejects(
      harness().resolve({ path: join(root, 'elsewhere/readme.md') }, root),
      /no package\.yao in .*elsewhere or any parent up to .*pass -n <assistant-id>/s,
    );
  });

  it('lets a later resolver answer before the not-found message', async () => {
    const root = app();
    const { createHooks } = await import('@agentest/kernel');
    const { default: yaoResolver } = await import('../src/index.js');
    const hooks = createHooks();
    yaoResolver().apply({ hooks: hooks as never, reportError: () => {} });
    hooks.resolve.tapPromise('config-agents', async (ref) =>
      ref.id === 'support.bot' ? { id: 'support.bot', run: async () => ({ content: 'x', text: 'x' }) } : undefined,
    );
    const agent = await hooks.resolve.promise(
      { id: 'support.bot' },
      { plan: { input: { input: 'x', cwd: root }, runs: 1, parallel: 1, failFast: false, env: {}, verbose: false } },
    );
    assert.equal(agent?.id, 'support.bot');
    await hooks.teardown.promise();
  });

  it('derives ids from the path under assistants/', () => {
    assert.equal(deriveAgentId('/app/assistants/workers/system/keyword'), 'workers.system.keyword');
    assert.equal(deriveAgentId('/srv/assistants/yao/craft', '/srv'), 'yao.craft');
    assert.equal(deriveAgentId('/tmp/bot'), 'bot');
  });
});
