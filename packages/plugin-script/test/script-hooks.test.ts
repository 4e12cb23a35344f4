import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { AgentestPlugin, CaseResult, Suite, TestCase } from '@agentest/kernel';
import { createScriptPool, withScriptHooks, type ScriptPool } from '../src/index.js';
import { resolveHookRef } from '../src/script-hooks.js';
import { APP, plan, runKernel } from './helpers.js';

const HOOKS_DIR = join(APP, 'assistants/hooks');
const JSONL = join(HOOKS_DIR, 'tests/inputs.jsonl');
const testCase: TestCase = {
  id: 'H1',
  kind: 'agent',
  input: 'hello',
  messages: [],
  source: { file: JSONL, line: 1 },
  user: 'case-user',
};
const suite: Suite = { name: JSONL, needsAgent: true, cases: () => [testCase], agentHint: { path: JSONL } };

describe('withScriptHooks (JSONL before/after hooks)', () => {
  let pool: ScriptPool;
  before(() => {
    pool = createScriptPool({ maxThreads: 1 });
  });
  after(() => pool.close());

  it('resolves refs the way Yao does', () => {
    const file = join(HOOKS_DIR, 'src/env_test.ts');
    assert.deepEqual(resolveHookRef('env_test.Before', HOOKS_DIR), { file, fn: 'Before' });
    assert.deepEqual(resolveHookRef('env.Before', HOOKS_DIR), { file, fn: 'Before' }, '_test is appended');
    assert.deepEqual(resolveHookRef('src.env_test.Before', HOOKS_DIR), { file, fn: 'Before' }, 'src/ is optional');
    assert.deepEqual(
      resolveHookRef('Before', HOOKS_DIR),
      { file, fn: 'Before' },
      'a bare name means the first *_test file',
    );
    assert.throws(() => resolveHookRef('nope.Before', HOOKS_DIR), /file not found \(tried: .*nope_test\.ts/);
  });

  it('calls BeforeAll, Before, After and AfterAll with Yao signatures, unwrapping {data}', async () => {
    const hooked = withScriptHooks(
      suite,
      {
        beforeAll: 'env_test.BeforeAll',
        before: 'env_test.Before',
        after: 'env_test.After',
        afterAll: 'env_test.AfterAll',
      },
      pool,
      { env: { team: 'ops' } },
    );
    const lifecycle = hooked.lifecycle!;
    assert.deepEqual(await lifecycle.beforeAll!([testCase]), { ids: ['H1'], user: 'test-user' });
    const data = await lifecycle.before!(testCase);
    assert.deepEqual(data, { prepared: 'H1', locale: 'en' });
    const result = { id: 'H1', status: 'passed', duration_ms: 3, output: 'hi' } as CaseResult;
    await lifecycle.after!(testCase, result, data);
    await lifecycle.afterAll!([result], { ids: ['H1'] });
    assert.equal(suite.lifecycle, undefined, 'the original suite is not changed');
  });

  it('rejects with the reason when a hook fails (the kernel records it on the case), and a missing function is a config error', async () => {
    const broken = withScriptHooks(suite, { before: 'env_test.Broken', after: 'env_test.Missing' }, pool).lifecycle!;
    await assert.rejects(
      broken.before!(testCase),
      /^Error: env_test\.Broken failed: hook failed \(at .*assistants\/hooks\/src\/env_test\.ts:6:\d+\)$/,
    );
    await assert.rejects(
      broken.after!(testCase, {} as CaseResult, undefined),
      (error: any) => error.code === 'CONFIG_INVALID',
    );
  });

  it('is applied to JSONL suites by the plugin option hooks', async () => {
    let seen: Suite | undefined;
    const loader: AgentestPlugin = {
      name: 'test:jsonl',
      apply({ hooks }) {
        hooks.load.tapPromise('test:jsonl', async () => ({ ...suite, cases: () => [testCase] }));
        hooks.suite.intercept({ result: (s: Suite | undefined) => void (seen = s) });
        hooks.resolve.tapPromise('test:jsonl', async () => ({
          id: 'echo',
          run: async () => ({ content: 'hi', text: 'hi' }),
        }));
        hooks.execute.for('agent').tapPromise('test:jsonl', async (_c, ctx) => ({
          run: ctx.run,
          status: 'passed',
          duration_ms: 1,
          output: 'hi',
          assertions: [],
          metrics: {},
        }));
      },
    };
    const { results } = await runKernel(
      plan('x.jsonl', APP),
      { hooks: { before: 'env_test.Before', afterAll: 'env_test.AfterAll' } },
      [loader],
    );
    assert.equal(results[0].status, 'passed');
    // beforeAll is there to check the configured refs before the first case.
    assert.deepEqual(Object.keys(seen!.lifecycle!).sort(), [
      'after',
      'afterAll',
      'before',
      'beforeAll',
      'hasCaseHooks',
    ]);
  });

  it('a configured ref whose function is nowhere in its file fails before the first case', async () => {
    const hooked = withScriptHooks(
      suite,
      { before: 'env_test.Before', afterAll: 'env_test.AfterAlll' },
      pool,
    ).lifecycle!;
    await assert.rejects(
      hooked.beforeAll!([testCase]),
      (error: any) =>
        error.code === 'CONFIG_INVALID' &&
        /hooks\.afterAll: env_test\.AfterAlll: .*assistants\/hooks\/src\/env_test\.ts:AfterAlll does not exist/.test(
          error.message,
        ),
    );
  });

  it('runs the hooks a case names itself, in place of the configured ones, and nothing for a case without', async () => {
    const own: TestCase = { ...testCase, id: 'H2', data: { before: 'env_test.Prepare', after: 'env_test.After' } };
    const plain: TestCase = { ...testCase, id: 'H3' };
    const lifecycle = withScriptHooks(suite, { before: 'env_test.Before' }, pool).lifecycle!;
    assert.deepEqual(await lifecycle.before!(own), { own: 'H2' }, "the case's Before, not the configured one");
    assert.deepEqual(await lifecycle.before!(plain), { prepared: 'H3', locale: 'en' }, 'the configured Before');
    await lifecycle.after!(own, { id: 'H2', status: 'passed', duration_ms: 1 } as CaseResult, undefined);
    const bare = withScriptHooks(suite, {}, pool).lifecycle!;
    assert.equal(await bare.before!(plain), undefined);
    await assert.rejects(
      bare.before!({ ...own, data: { before: 'env_test.Nope' } }),
      (error: any) =>
        error.code === 'CONFIG_INVALID' &&
        /inputs\.jsonl:1: field "before": env_test\.Nope: .*assistants\/hooks\/src\/env_test\.ts:Nope does not exist/.test(
          error.message,
        ),
    );
    await assert.rejects(
      bare.before!({ ...own, data: { before: 42 } }),
      /field "before" of case "H2" must be a hook name/,
    );
  });

  it('tells the kernel which cases have a hook to run: those naming one, or all when the config names one', () => {
    const bare = withScriptHooks(suite, {}, pool).lifecycle!;
    assert.equal(bare.hasCaseHooks!(testCase), false, 'no ref anywhere: the kernel calls neither hook');
    assert.equal(bare.hasCaseHooks!({ ...testCase, data: { before: '', after: null } }), false);
    assert.equal(bare.hasCaseHooks!({ ...testCase, data: { after: 'env_test.After' } }), true);
    assert.equal(bare.hasCaseHooks!({ ...testCase, data: { before: 42 } }), true, 'a bad field still fails in Before');
    const configured = withScriptHooks(suite, { after: 'env_test.After' }, pool).lifecycle!;
    assert.equal(configured.hasCaseHooks!(testCase), true);
  });

  it('looks refs up in the resolved assistant, so a suite kept outside its folder finds them', async () => {
    const outside: Suite = {
      ...suite,
      name: '/elsewhere/inputs.jsonl',
      agentHint: { path: '/elsewhere/inputs.jsonl' },
    };
    const assistant = { id: 'hooks', path: HOOKS_DIR, run: async () => ({ content: '', text: '' }) };
    const lifecycle = withScriptHooks(
      outside,
      { beforeAll: 'env_test.BeforeAll', before: 'env_test.Before' },
      pool,
    ).lifecycle!;
    const own: TestCase = { ...testCase, source: { file: '/elsewhere/inputs.jsonl', line: 3 } };
    assert.deepEqual(await lifecycle.beforeAll!([own], assistant), { ids: ['H1'], user: 'test-user' });
    assert.deepEqual(await lifecycle.before!(own, assistant), { prepared: 'H1', locale: 'en' });
    const echo = { id: 'echo', run: assistant.run };
    await assert.rejects(
      lifecycle.before!(own, echo),
      (error: any) =>
        error.code === 'CONFIG_INVALID' &&
        /the agent "echo" is not a Yao assistant.*pass -n <assistant-id>/.test(error.message),
    );
  });

  it("checks a case's own After before the case runs, naming file:Function", async () => {
    const lifecycle = withScriptHooks(suite, {}, pool).lifecycle!;
    const typo: TestCase = { ...testCase, data: { after: 'env_test.Aftr' } };
    await assert.rejects(
      lifecycle.before!(typo),
      (error: any) =>
        error.code === 'CONFIG_INVALID' &&
        /inputs\.jsonl:1: field "after": env_test\.Aftr: .*src\/env_test\.ts:Aftr does not exist/.test(error.message),
    );
  });

  it('through createKernel: a suite outside the assistant folder runs the hooks of the resolved assistant', async () => {
    const outsideCase: TestCase = {
      ...testCase,
      id: 'O1',
      source: { file: '/elsewhere/inputs.jsonl', line: 1 },
      data: { before: 'env_test.Prepare' },
    };
    const loader: AgentestPlugin = {
      name: 'test:outside',
      apply({ hooks }) {
        hooks.load.tapPromise('test:outside', async () => ({
          name: '/elsewhere/inputs.jsonl',
          needsAgent: true,
          cases: () => [outsideCase],
          agentHint: { path: '/elsewhere/inputs.jsonl' },
        }));
        hooks.resolve.tapPromise('test:outside', async () => ({
          id: 'hooks',
          path: HOOKS_DIR,
          run: async () => ({ content: 'hi', text: 'hi' }),
        }));
        hooks.execute.for('agent').tapPromise('test:outside', async (_c, ctx) => ({
          run: ctx.run,
          status: 'passed',
          duration_ms: 1,
          output: 'hi',
          assertions: [],
          metrics: {},
        }));
      },
    };
    const { results } = await runKernel(plan('x.jsonl', APP), { hooks: { afterAll: 'env_test.AfterAll' } }, [loader]);
    assert.equal(results[0]!.status, 'passed', results[0]!.error);
  });
});
