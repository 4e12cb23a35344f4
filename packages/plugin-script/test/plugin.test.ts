import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createKernel } from '@agentest/kernel';
import script from '../src/index.js';
import { APP, EXAMPLE_APP, plan, runKernel } from './helpers.js';

describe('script tests through the kernel', () => {
  it('runs the expense example: statuses, assertion details, logs and suite meta', async () => {
    const { start, results, runs, summary } = await runKernel(plan('scripts.expense.setup', EXAMPLE_APP));
    assert.ok(summary.failed + summary.errors > 0, 'the example has failing tests');
    assert.deepEqual(start.meta, {
      mode: 'script',
      script: 'scripts.expense.setup',
      script_path: 'assistants/expense/src/setup_test.ts',
      assistant_id: 'expense',
      tests: 7,
      loaded: ['assistants/expense/src/setup.ts', 'assistants/expense/src/setup_test.ts'],
    });
    assert.equal(start.kind, 'script');
    const status = Object.fromEntries([...runs].map(([id, e]) => [id, e.status]));
    assert.deepEqual(status, {
      TestSystemReady: 'passed',
      TestSystemReadyWithInvalidContext: 'passed',
      TestSetupWithMockData: 'passed',
      TestTotalAsync: 'passed',
      TestTotalIsWrong: 'failed',
      TestNeedsDatabase: 'skipped',
      TestFatalStops: 'failed',
    });
    const wrong = runs.get('TestTotalIsWrong')!;
    assert.equal(wrong.error, 'assertion failed: total of one expense');
    assert.deepEqual(wrong.details?.assertion, {
      type: 'Equal',
      expected: 3,
      actual: 2,
      message: 'total of one expense',
    });
    assert.equal(runs.get('TestFatalStops')!.error, 'configuration missing');
    assert.equal(runs.get('TestFatalStops')!.details, undefined, 'fatal() stopped before the failing assertion');
    assert.deepEqual(runs.get('TestNeedsDatabase')!.details, { skip_reason: 'no database in this environment' });
    assert.deepEqual(runs.get('TestSetupWithMockData')!.logs, ["created { id: 1, amount: 250, owner: 'test-user' }"]);
    const first = results.find((r) => r.id === 'TestSystemReady')!;
    assert.deepEqual(
      [first.kind, first.input, first.source.file, first.source.line],
      ['script', 'TestSystemReady', 'assistants/expense/src/setup_test.ts', 15],
    );
  });

  it('filters with --run on the function name', async () => {
    const { results } = await runKernel(plan('scripts.expense.setup', EXAMPLE_APP, { filter: /TestSystem/ }));
    assert.deepEqual(
      results.map((r) => r.id),
      ['TestSystemReady', 'TestSystemReadyWithInvalidContext'],
    );
  });

  it('uses a 30s default timeout per test and honours --timeout', async () => {
    const suite = await loadSuite('scripts.iso.iso');
    assert.equal(suite.defaultTimeoutMs, 30_000);
    // Only tests that never end share this short limit: one that must pass could wait longer than
    // that for a replaced worker on a busy machine (isolation.test.ts checks it passes afterwards).
    const { runs, results } = await runKernel(
      plan('scripts.iso.iso', APP, { timeoutMs: 600, filter: /^Test(SyncLoop|AsyncLoop|Hangs)$/ }),
    );
    assert.deepEqual(
      [...runs].map(([id, e]) => [id, e.status]),
      [
        ['TestSyncLoop', 'timeout'],
        ['TestAsyncLoop', 'timeout'],
        ['TestHangs', 'timeout'],
      ],
    );
    for (const [id, e] of runs) assert.match(e.error!, /^timeout after 600ms/, id);
    assert.equal(results.length, 3, 'the run went on after every hang');
  });

  it('stops at the first failure with --fail-fast', async () => {
    const { results } = await runKernel(plan('scripts.expense.setup', EXAMPLE_APP, { failFast: true }));
    const ran = results.filter((r) => !r.skip_reason?.startsWith('not run:'));
    assert.equal(ran.at(-1)!.id, 'TestTotalIsWrong');
    assert.ok(results.length > ran.length, 'the tests it never started are reported as not run');
  });

  it('runs test functions of one file concurrently with --parallel', async () => {
    const { runs } = await runKernel(
      plan('scripts.iso.iso', APP, { timeoutMs: 300, parallel: 2, filter: /^Test(Hangs|SyncLoop)$/ }),
    );
    assert.deepEqual(
      [...runs.values()].map((e) => e.status),
      ['timeout', 'timeout'],
    );
  });

  it('runs TestMain once and BeforeEach/AfterEach around every test, in its fresh context', async () => {
    const { runs } = await runKernel(plan('scripts.life.life', APP));
    assert.deepEqual(Object.fromEntries([...runs].map(([id, e]) => [id, [e.status, e.error]])), {
      TestFirst: ['passed', undefined],
      TestSecond: ['passed', undefined],
      TestAfterEachFails: ['failed', 'assertion failed: AfterEach check'],
      TestThrowStillRunsAfterEach: ['error', 'boom (at assistants/life/src/life_test.ts:9:49)'],
    });
    assert.deepEqual(runs.get('TestFirst')!.logs, ['before TestFirst', 'after TestFirst false']);
    assert.deepEqual(runs.get('TestThrowStillRunsAfterEach')!.logs, [
      'before TestThrowStillRunsAfterEach',
      'after TestThrowStillRunsAfterEach false',
    ]);
  });

  it('reports every test as an error when TestMain fails', async () => {
    const { runs } = await runKernel(plan('scripts.lifefail.lifefail', APP));
    assert.deepEqual(
      [...runs.values()].map((e) => [e.status, e.error]),
      [['error', 'TestMain failed: database unreachable']],
    );
  });

  it('stops the run with file:line:col for a syntax error', async () => {
    await assert.rejects(runKernel(plan('scripts.broken.bad', APP)), (error: any) => {
      assert.equal(error.code, 'SCRIPT_INVALID');
      assert.match(error.message, /assistants\/broken\/src\/bad_test\.ts:6:13: Unexpected ";"/);
      return true;
    });
  });

  it('stops the run listing the tried paths for a missing test file', async () => {
    await assert.rejects(
      runKernel(plan('scripts.expense.nothing', EXAMPLE_APP)),
      (error: any) =>
        error.code === 'INPUT_NOT_FOUND' && /tried: assistants\/expense\/src\/nothing_test\.ts/.test(error.message),
    );
  });

  it('leaves inputs that are not script references to other loaders', async () => {
    await assert.rejects(runKernel(plan('hello there', APP)), (error: any) => error.code === 'NO_LOADER');
  });
});

describe('ctx', () => {
  const ctxOf = async (overrides: Parameters<typeof plan>[2]) =>
    (await runKernel(plan('scripts.ctx.ctx', APP, overrides))).runs.get('TestContext')!.output as any;

  it('carries both the seed shape and the lowercase Yao fields, with defaults', async () => {
    const ctx = await ctxOf({});
    assert.deepEqual(ctx.User, { ID: 'test-user' });
    assert.deepEqual(ctx.Team, { ID: 'test-team' });
    assert.equal(ctx.Locale, 'en-us');
    assert.deepEqual(ctx.Client, { Type: 'test', IP: '127.0.0.1', UserAgent: 'agentest/1.0' });
    assert.equal(ctx.ChatID, 'script-test-TestContext');
    assert.equal(ctx.chat_id, 'script-test-TestContext');
    assert.equal(ctx.AssistantID, 'ctx');
    assert.equal(ctx.assistant_id, 'ctx');
    assert.equal(ctx.authorized.user_id, 'test-user');
    assert.equal(ctx.authorized.team_id, 'test-team');
    assert.deepEqual(ctx.client, { type: 'test', user_agent: 'agentest/1.0', ip: '127.0.0.1' });
    assert.deepEqual(ctx.metadata, { touched: true }, 'Metadata and metadata are one object');
  });

  it('takes -u/-t over the defaults', async () => {
    const ctx = await ctxOf({ env: { user: 'admin', team: 'ops-team' } });
    assert.deepEqual(
      [ctx.User.ID, ctx.Team.ID, ctx.authorized.user_id, ctx.authorized.team_id],
      ['admin', 'ops-team', 'admin', 'ops-team'],
    );
  });

  it('lets the --ctx file win over -u/-t, and carries its metadata, client and chat id', async () => {
    const ctx = await ctxOf({
      env: {
        user: 'admin',
        team: 'ops-team',
        ctx: {
          authorized: { user_id: 'ctx-user', team_id: 'team-001', tenant_id: 'acme', scope: 'read' },
          metadata: { request_id: 'r1' },
          client: { type: 'web', ip: '10.0.0.1' },
          locale: 'zh-cn',
          chat_id: 'chat-9',
        },
      },
    });
    assert.deepEqual([ctx.User.ID, ctx.Team.ID], ['ctx-user', 'team-001']);
    assert.deepEqual(ctx.authorized, {
      sub: 'admin',
      user_id: 'ctx-user',
      team_id: 'team-001',
      tenant_id: 'acme',
      scope: 'read',
    });
    assert.deepEqual(ctx.Metadata, { request_id: 'r1', touched: true });
    assert.deepEqual(
      [ctx.Locale, ctx.locale, ctx.Client.Type, ctx.client.ip, ctx.ChatID],
      ['zh-cn', 'zh-cn', 'web', '10.0.0.1', 'chat-9'],
    );
  });
});

async function loadSuite(input: string) {
  let suite: any;
  const kernel = createKernel({
    plugins: [
      script(),
      { name: 'test:peek', apply: ({ hooks }) => hooks.suite.intercept({ result: (s: unknown) => void (suite = s) }) },
    ],
  });
  await kernel.run(plan(input, APP, { filter: /^TestPasses$/ }));
  return suite;
}
