import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startFakeLlm, type FakeLlm } from '@agentest/fake-llm';
import yaoResolver, { type YaoResolverOptions } from '../src/index.js';
import { ask, harness, openaiConnector, runCases, writeTree } from './helpers.js';

let fake: FakeLlm;
before(async () => {
  fake = await startFakeLlm({ rules: [{ match: /./, reply: (input) => `model saw: ${input.text}` }] });
});
after(() => fake.close());

/** An app whose hooks call Yao processes, as hooks copied from a real Yao app do. */
function app(hook: string, extra: Record<string, string> = {}) {
  return writeTree({
    'app.yao': '{}',
    'connectors/fake.conn.yao': JSON.stringify(openaiConnector(fake.url)),
    'assistants/shop/package.yao': '{ "connector": "fake" }',
    'assistants/shop/prompts.yml': '- role: system\n  content: Be brief.\n',
    'assistants/shop/src/index.ts': hook,
    'assistants/shop/src/catalog.ts': `export function Price(item: string) {
      log.Debug("price lookup for %s", item);
      return { apple: 3, pear: 4 }[item] ?? 0;
    }
    export function Spin() { for (;;) {} }`,
    'scripts/text.ts': 'export function Shout(text: string) { return text.toUpperCase(); }',
    ...extra,
  });
}

function h(options: YaoResolverOptions = {}) {
  return harness({ env: { FAKE_KEY: 'k' }, ...options });
}

describe('what hooks can call', () => {
  it('Process runs agents.<id>.<script>.Fn and scripts.<path>.Fn synchronously; the results reach the LLM and the output', async () => {
    // Plain top-level functions and a type from the runtime module, as in real Yao hook files.
    const root = app(`import { Process, log } from "@yao/runtime";
function Create(ctx: agent.Context, messages: any[]) {
  const price = Process("agents.shop.catalog.Price", "apple");
  log.Info("apple costs %d", price);
  return { messages: [{ role: "user", content: Process("scripts.text.Shout", messages[0].content) + " costs " + price }] };
}
function Next(ctx: agent.Context, payload: any) {
  return { data: { reply: payload.completion.content, pear: Process("Agents.Shop.Catalog.Price", "pear") } };
}`);
    const reply = await ask(await h().resolve({ id: 'shop' }, root), 'apple');
    assert.deepEqual(reply.content, { reply: 'model saw: APPLE costs 3', pear: 4 });
    assert.deepEqual(
      reply.trace?.logs,
      ['DEBUG: price lookup for apple', 'apple costs 3', 'DEBUG: price lookup for pear'],
      'log.* lines are the hook logs',
    );
  });

  it('runs stubbed processes: a fixed value, or a function of a module named after the process', async () => {
    const root = app(
      `function Next(ctx: any, payload: any) {
        return { data: { user: Process("models.user.Find", 7), region: Process("utils.env.Get", "REGION") } };
      }`,
      { 'test/stubs.ts': 'export function Find(id: number) { return { id, name: "Ann" }; }' },
    );
    const agent = await h({
      processes: { 'models.user.Find': { module: 'test/stubs.ts' }, 'utils.env.Get': { value: 'eu-west' } },
    }).resolve({ id: 'shop' }, root);
    assert.deepEqual((await ask(agent, 'hi')).content, { user: { id: 7, name: 'Ann' }, region: 'eu-west' });
  });

  it('records ctx.Send and ctx.SendStream in the hook logs; ctx.memory fails with a clear message', async () => {
    const root = app(`function Create(ctx: any) {
        const id = ctx.SendStream({ type: "loading", props: { message: "Thinking" } });
        ctx.End(id);
        ctx.Send("Looking that up");
        if (ctx.metadata.remember) ctx.memory.chat.Set("topic", "fruit");
        return null;
      }`);
    const agent = await h().resolve({ id: 'shop' }, root);
    const reply = await ask(agent, 'hi');
    assert.equal(reply.content, 'model saw: hi');
    assert.deepEqual(reply.trace?.logs, [
      'ctx.SendStream M1: loading {"message":"Thinking"}',
      'ctx.End M1',
      'ctx.Send: Looking that up',
    ]);
    await assert.rejects(
      ask(agent, 'hi', {}, { remember: true }),
      /Create hook failed: ctx\.memory\.chat\.Set\(\) is not available when agentest runs a hook/,
    );
  });

  it('still enforces the hook time limit when a Process target loops', async () => {
    const root = app(
      'function Create() { return { messages: [{ role: "user", content: String(Process("agents.shop.catalog.Spin")) }] }; }',
    );
    // Spin() never returns: only the hook's own limit ends the call.
    await assert.rejects(
      ask(await h({ hookTimeoutMs: 300 }).resolve({ id: 'shop' }, root), 'hi'),
      /Create hook failed: timed out after 300ms/,
    );
  });

  it('rejects a malformed stub in the options', () => {
    const apply = (processes: unknown) => () =>
      yaoResolver({ processes } as never).apply({ hooks: {} as never, reportError: () => undefined });
    assert.throws(
      apply({ 'models.user.Find': { path: './stubs.ts' } }),
      /agentest:yao option processes\.models\.user\.Find: expected \{ module: "\.\/stubs\/file\.ts", export\?: "Function" \} or \{ value: <data> \}/,
    );
    assert.throws(
      apply({ 'models.user.Find': { module: '' } }),
      /agentest:yao option processes\.models\.user\.Find\.module: Too small/,
    );
  });

  it('makes a case that calls an unknown process an error, with how to stub it, and the run goes on', async () => {
    const root = app(`function Create(ctx: any, messages: any[]) {
        if (messages[0].content === "save") Process("models.order.Save", { id: 1 });
        return null;
      }`);
    const runs = await runCases(root, 'shop', ['save', 'browse'], { env: { FAKE_KEY: 'k' } });
    assert.equal(runs.get('save')?.status, 'error');
    assert.match(
      runs.get('save')!.error!,
      /Create hook failed: Process\("models\.order\.Save"\) is not available under agentest: .*models\.\* needs a running Yao\. To test it, stub it in agentest\.config\.ts: yaoResolver\(\{ processes: \{ "models\.order\.Save": \{ value: <what it returns> \} \} \}\)/,
    );
    assert.equal(runs.get('browse')?.status, 'passed');
    assert.equal(runs.get('browse')?.output, 'model saw: browse');
  });
});
