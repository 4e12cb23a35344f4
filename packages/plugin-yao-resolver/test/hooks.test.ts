import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startFakeLlm, type FakeLlm } from '@agentest/fake-llm';
import { ask, harness, openaiConnector, runCases, writeTree } from './helpers.js';

let fake: FakeLlm;
before(async () => {
  fake = await startFakeLlm({ rules: [{ match: /./, reply: (input) => `${input.request.model}: ${input.text}` }] });
});
after(() => fake.close());

const PROMPTS = '- role: system\n  content: Answer briefly.\n';

function app(files: Record<string, string>) {
  return writeTree({
    'app.yao': '{}',
    'connectors/fake/a.conn.yao': JSON.stringify(openaiConnector(fake.url, { model: 'a' })),
    'connectors/fake/b.conn.yao': JSON.stringify(openaiConnector(fake.url, { model: 'b' })),
    ...files,
  });
}

function h() {
  return harness({ env: { FAKE_KEY: 'k' } });
}

describe('hooks', () => {
  it('Create replaces the input messages and changes LLM options', async () => {
    const root = app({
      'assistants/bot/package.yao': '{ "connector": "fake.a" }',
      'assistants/bot/prompts.yml': PROMPTS,
      'assistants/bot/src/index.ts': `export function Create(ctx: any, messages: any[]) {
        return { messages: [{ role: 'user', content: 'rewritten ' + messages[0].content }], temperature: 0.9 };
      }`,
    });
    const reply = await ask(await h().resolve({ id: 'bot' }, root), 'hi');
    assert.equal(reply.content, 'a: rewritten hi');
    assert.equal((fake.requests.at(-1)!.body as { temperature: number }).temperature, 0.9);
  });

  it("gives hooks Yao's ctx fields theme and route, empty as in a request that sets none", async () => {
    const root = app({
      'assistants/plain/package.yao': '{}',
      'assistants/plain/src/index.ts': `function Next(ctx: any) { return { data: { theme: ctx.theme, route: ctx.route, locale: ctx.locale } }; }`,
    });
    const agent = await h().resolve({ id: 'plain' }, root);
    const reply = await ask(agent, 'hi');
    assert.deepEqual(reply.content, { theme: '', route: '', locale: (reply.content as { locale: string }).locale });
    assert.equal(typeof (reply.content as { locale: unknown }).locale, 'string');
  });

  it('Create sees ctx (with case metadata) and options; its connector beats -c', async () => {
    const root = app({
      'assistants/bot/package.yao': '{ "connector": "fake.a" }',
      'assistants/bot/prompts.yml': PROMPTS,
      'assistants/bot/src/index.ts': `export function Create(ctx: any, messages: any[], options: any) {
        if (ctx.metadata.use_b) return { connector: 'fake.b', metadata: { seen: options.connector + '/' + ctx.assistant_id } };
        return null;
}
function Next(ctx: any, payload: any) {
        return { data: { text: payload.completion.content, seen: ctx.metadata.seen ?? null } };
      }`,
    });
    const agent = await h().resolve({ id: 'bot', connector: 'fake.a' }, root);
    assert.deepEqual((await ask(agent, 'hi', { metadata: { use_b: true } })).content, {
      text: 'b: hi',
      seen: 'fake.a/bot',
    });
    assert.deepEqual((await ask(agent, 'hi')).content, { text: 'a: hi', seen: null });
  });

  it('Create delegates to another assistant, skipping the LLM and its own Next', async () => {
    const root = app({
      'assistants/router/package.yao': '{ "connector": "fake.a" }',
      'assistants/router/prompts.yml': PROMPTS,
      'assistants/router/src/index.ts': `export const Create = (ctx: any, messages: any[]) => ({ delegate: { agent_id: 'team.helper', messages: [{ role: 'user', content: 'from router' }] } });
      export const Next = () => ({ data: 'router Next must not run' });`,
      'assistants/team/helper/package.yao': '{ "connector": "fake.b" }',
      'assistants/team/helper/prompts.yml': PROMPTS,
    });
    const before = fake.requests.length;
    const reply = await ask(await h().resolve({ id: 'router' }, root), 'hi');
    assert.equal(reply.content, 'b: from router');
    assert.equal(fake.requests.length, before + 1, 'only the delegate called the model');
    assert.equal(reply.trace?.delegated_to, 'team.helper');
  });

  it('Next data becomes the output; empty data keeps the completion', async () => {
    const root = app({
      'assistants/bot/package.yao': '{ "connector": "fake.a" }',
      'assistants/bot/prompts.yml': PROMPTS,
      'assistants/bot/src/index.ts': `export function Next(ctx: any, payload: any) {
        const text = payload.completion.content;
        if (text.includes('empty')) return { data: {} };
        if (text.includes('meta')) return { metadata: { x: 1 } };
        return { data: { words: text.split(' ').length, role: payload.completion.role, sent: payload.messages.length } };
      }`,
    });
    const agent = await h().resolve({ id: 'bot' }, root);
    assert.deepEqual((await ask(agent, 'two words')).content, { words: 3, role: 'assistant', sent: 2 });
    assert.equal((await ask(agent, 'empty')).content, 'a: empty');
    assert.equal((await ask(agent, 'meta')).content, 'a: meta');
  });

  it('Next delegates to another assistant', async () => {
    const root = app({
      'assistants/bot/package.yao': '{ "connector": "fake.a" }',
      'assistants/bot/prompts.yml': PROMPTS,
      'assistants/bot/src/index.ts': `export function Next(ctx: any, payload: any) {
        return { delegate: { agent_id: 'second', messages: [{ role: 'user', content: 'again: ' + payload.completion.content }] } };
      }`,
      'assistants/second/package.yao': '{ "connector": "fake.b" }',
      'assistants/second/prompts.yml': PROMPTS,
    });
    assert.equal((await ask(await h().resolve({ id: 'bot' }, root), 'hi')).content, 'b: again: a: hi');
  });

  it('runs a hook-only assistant without the LLM: Next data is the output', async () => {
    const root = app({
      'assistants/tools/keyword/package.yao': '{ "name": "keyword" }',
      'assistants/tools/keyword/src/index.ts': `export function Next(ctx: any, payload: any) {
        console.log('next called');
        const text: string = payload.messages.at(-1).content;
        return { data: { keywords: text.split(/\\s+/).filter((w) => w.length > 3), completion: payload.completion } };
      }`,
    });
    const before = fake.requests.length;
    const reply = await ask(await h().resolve({ id: 'tools.keyword' }, root), 'find some useful keywords');
    assert.deepEqual(reply.content, { keywords: ['find', 'some', 'useful', 'keywords'], completion: null });
    assert.deepEqual(reply.trace?.logs, ['next called'], 'what the hook printed is traced');
    assert.equal(fake.requests.length, before);
  });

  it("turns a throwing hook into an error carrying the hook's message", async () => {
    const root = app({
      'assistants/bot/package.yao': '{}',
      'assistants/bot/src/index.ts': `export function Create() { throw new Error('no input allowed'); }`,
    });
    await assert.rejects(ask(await h().resolve({ id: 'bot' }, root), 'hi'), /Create hook failed: .*no input allowed/);
  });

  it("keeps what a hook printed before it threw on the case's trace, with what ran before it", async () => {
    const root = app({
      'assistants/bot/package.yao': '{ "connector": "fake.a" }',
      'assistants/bot/prompts.yml': PROMPTS,
      'assistants/bot/src/index.ts': `export function Create(ctx: any, messages: any[]) {
        console.log('create saw', messages[0].content);
        return { metadata: { step: 'created' } };
      }
      export function Next(ctx: any, payload: any) {
        console.log('next got', payload.completion.content);
        if (payload.completion.content.includes('boom')) throw new Error('cannot use this answer');
        return null;
      }`,
    });
    const runs = await runCases(root, 'bot', ['boom', 'fine'], { env: { FAKE_KEY: 'k' } });
    const failed = runs.get('boom')!;
    assert.equal(failed.status, 'error');
    assert.match(failed.error!, /Next hook failed: .*cannot use this answer/);
    assert.deepEqual(failed.trace?.logs, ['create saw boom', 'next got a: boom']);
    assert.deepEqual(failed.trace?.create, { metadata: { step: 'created' } });
    assert.equal((failed.trace?.completion as { content: string }).content, 'a: boom');
    assert.deepEqual(runs.get('fine')?.trace?.logs, ['create saw fine', 'next got a: fine']);
  });

  it('reports a malformed hook return value', async () => {
    const root = app({
      'assistants/bot/package.yao': '{}',
      'assistants/bot/src/index.ts': `export function Create() { return { messages: 'hello' }; }`,
    });
    await assert.rejects(
      ask(await h().resolve({ id: 'bot' }, root), 'hi'),
      /Create returned "messages" as the string "hello"; expected a list/,
    );
  });

  it('stops a delegation loop', async () => {
    const root = app({
      'assistants/ping/package.yao': '{}',
      'assistants/ping/src/index.ts': `export const Create = () => ({ delegate: { agent_id: 'ping' } });`,
    });
    await assert.rejects(ask(await h().resolve({ id: 'ping' }, root), 'hi'), /delegate in a loop/);
  });

  it('makes a case error of a delegate to an unknown assistant', async () => {
    const root = app({
      'assistants/bot/package.yao': '{}',
      'assistants/bot/src/index.ts': `export const Create = () => ({ delegate: { agent_id: 'ghost' } });`,
    });
    await assert.rejects(
      ask(await h().resolve({ id: 'bot' }, root), 'hi'),
      /delegate to "ghost" from "bot": no .*assistants\/ghost\/package\.yao/,
    );
  });
});
