import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createKernel, type PlanContext, type TestContext } from '../src/index.js';
import { collector, inlinePlugins, plan, testCase } from './helpers.js';

/** Runs two cases and returns the start event's environment and the context each run handed its executor. */
async function contexts(context?: PlanContext) {
  const seen: TestContext[] = [];
  const c = collector();
  const [inline] = inlinePlugins([testCase('a'), testCase('b', { user: 'case-user' })]);
  const spy = {
    name: 'test:spy',
    apply: ({ hooks }: Parameters<typeof inline.apply>[0]) =>
      hooks.execute
        .for('agent')
        .tapPromise({ name: 'test:spy', stage: -1 }, async (_c, ctx) => void seen.push(ctx.context)),
  };
  await createKernel({ plugins: [inline, spy, c.plugin] }).run(plan({ runs: 2, ...(context ? { context } : {}) }));
  return { environment: c.events.find((e) => e.type === 'start')!.environment, seen };
}

test("a plan without a context: the kernel adds no identity defaults, only the case's own user and each run's chat id", async () => {
  const { environment, seen } = await contexts();
  assert.deepEqual(Object.values(environment as object), ['', '', '', '', '', '', '']);
  assert.deepEqual(
    seen.map((ctx) => [ctx.user_id, ctx.chat_id, ctx.assistant_id]),
    [
      ['', 'test-a-run1', 'echo'],
      ['', 'test-a-run2', 'echo'],
      ['case-user', 'test-b-run1', 'echo'],
      ['case-user', 'test-b-run2', 'echo'],
    ],
  );
  assert.notEqual(seen[0], seen[1], 'every run gets its own context object');
});

test("the plan's context decides the report's environment and what every run sees", async () => {
  const asked: string[] = [];
  const context: PlanContext = {
    environment: {
      user_id: 'u',
      team_id: 't',
      locale: 'l',
      client_type: 'c',
      client_ip: 'i',
      referer: 'r',
      accept: 'a',
    },
    forAgent: (assistantId) => (tc, chatId) => {
      asked.push(`${assistantId} ${chatId} ${tc.user ?? '-'}`);
      return { user_id: tc.user ?? 'plan-user', chat_id: chatId } as TestContext;
    },
  };
  const { environment, seen } = await contexts(context);
  assert.equal((environment as { user_id: string }).user_id, 'u');
  assert.deepEqual(
    seen.map((ctx) => ctx.user_id),
    ['plan-user', 'plan-user', 'case-user', 'case-user'],
  );
  assert.deepEqual(asked, [
    'echo test-a-run1 -',
    'echo test-a-run2 -',
    'echo test-b-run1 case-user',
    'echo test-b-run2 case-user',
  ]);
});
