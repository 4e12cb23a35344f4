import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHooks, createKernel, type AgentestPlugin, type PublicHooks } from '../src/index.js';
import { inlinePlugins, plan, testCase } from './helpers.js';

/**
 * The hook contract as docs/plugins.md states it, written out here rather than read from the kernel,
 * so that adding, removing or retyping a hook fails this test until the contract is changed on purpose.
 */
const CONTRACT = [
  { hook: 'setup', kind: 'AsyncSeriesHook', name: 'setup' },
  { hook: 'resolve', kind: 'AsyncSeriesBailHook', name: 'resolve' },
  { hook: 'load', kind: 'AsyncSeriesBailHook', name: 'load' },
  { hook: 'suite', kind: 'AsyncSeriesWaterfallHook', name: 'suite' },
  { hook: 'execute', kind: 'HookMap<AsyncSeriesBailHook>', name: 'execute:<key>' },
  { hook: 'assert', kind: 'HookMap<AsyncSeriesBailHook>', name: 'assert:<key>' },
  { hook: 'summary', kind: 'AsyncSeriesWaterfallHook', name: 'summary' },
  { hook: 'report', kind: 'AsyncSeriesHook', name: 'report' },
  { hook: 'teardown', kind: 'AsyncSeriesHook', name: 'teardown' },
];

/** What a plugin can do with a hook: exactly the methods that work. */
const TAP_ONLY = ['intercept', 'isUsed', 'name', 'tap', 'tapAsync', 'tapPromise'];

test('the hook block has exactly the hooks, kinds and names of the contract, in its order', () => {
  const hooks = createHooks() as unknown as Record<string, { constructor: { name: string }; name?: string }>;
  assert.ok(Object.isFrozen(hooks));
  const actual = Object.entries(hooks).map(([hook, value]) => {
    if (value.constructor.name !== 'HookMap') return { hook, kind: value.constructor.name, name: value.name };
    const keyed = (value as unknown as { for(key: string): { constructor: { name: string }; name: string } }).for(
      '<key>',
    );
    return { hook, kind: `HookMap<${keyed.constructor.name}>`, name: keyed.name };
  });
  assert.deepEqual(actual, CONTRACT);
});

test('plugins get a view of every hook that taps and intercepts but cannot fire or read taps', async () => {
  let seen: PublicHooks | undefined;
  await createKernel({
    plugins: [...inlinePlugins([testCase('a')]), { name: 'test:look', apply: ({ hooks }) => void (seen = hooks) }],
  }).run(plan());
  assert.deepEqual(
    Object.keys(seen!),
    CONTRACT.map((c) => c.hook),
  );
  assert.ok(Object.isFrozen(seen));
  for (const { hook } of CONTRACT) {
    const view = seen![hook as keyof PublicHooks];
    const one = 'for' in view ? view.for('agent') : view;
    assert.deepEqual(Object.keys(one).sort(), TAP_ONLY, hook);
    assert.ok(Object.isFrozen(one), hook);
  }
  assert.equal(seen!.load.isUsed(), true);
});

type Seen = string[];

/** An interceptor that writes down everything tapable says it may hear. */
function observe(seen: Seen) {
  return {
    register: (tap: { name: string }) => (seen.push(`register ${tap.name}`), tap),
    call: () => void seen.push('call'),
    tap: (tap: { name: string }) => void seen.push(`tap ${tap.name}`),
    result: () => void seen.push('result'),
    done: () => void seen.push('done'),
    error: (error: Error) => void seen.push(`error ${error.message}`),
  };
}

/**
 * Runs one suite with a plugin that taps `hook` (with `tap`) and intercepts it, first with a tap
 * that answers, then with one that throws. Answers what the interceptor heard in each run.
 */
async function intercepted(
  hook: (hooks: PublicHooks) => { intercept(i: object): void },
  tap: (hooks: PublicHooks, fail: boolean) => void,
): Promise<{ ok: Seen; failed: Seen }> {
  const heard = async (fail: boolean) => {
    const seen: Seen = [];
    const plugin: AgentestPlugin = {
      name: 'test:observed',
      apply({ hooks }) {
        tap(hooks, fail);
        hook(hooks).intercept(observe(seen));
      },
    };
    const cases = [testCase('a', { assert: [{ type: 'contains', value: 'a' }] })];
    await createKernel({ plugins: [plugin, ...inlinePlugins(cases)] })
      .run(plan())
      .catch(() => undefined);
    return seen;
  };
  return { ok: await heard(false), failed: await heard(true) };
}

/** What `error` interceptors hear: the tap's error, named after its plugin and hook. */
const failure = (hook: string) => `error plugin "test:observed" failed in hook "${hook}": boom`;

/** A plugin's interceptor hears the taps registered after it too: here the harness's tap on the same hook. */
const registered = (harnessTap: string) => ['register test:observed', `register test:${harnessTap}`];

const boom = () => {
  throw new Error('boom');
};

test('setup: register, call, tap, done and error interceptors fire', async () => {
  const { ok, failed } = await intercepted(
    (h) => h.setup,
    (h, fail) => h.setup.tap('test:observed', fail ? boom : () => undefined),
  );
  assert.deepEqual(ok, ['register test:observed', 'call', 'tap test:observed', 'done']);
  assert.deepEqual(failed, ['register test:observed', 'call', 'tap test:observed', failure('setup')]);
});

test('resolve: register, call, tap, result and error interceptors fire', async () => {
  const agent = { id: 'mine', run: async () => ({ content: 'a', text: 'a' }) };
  const { ok, failed } = await intercepted(
    (h) => h.resolve,
    (h, fail) => h.resolve.tap({ name: 'test:observed', stage: -1 }, fail ? boom : () => agent),
  );
  assert.deepEqual(ok, [...registered('echo'), 'call', 'tap test:observed', 'result']);
  assert.deepEqual(failed, [...registered('echo'), 'call', 'tap test:observed', failure('resolve')]);
});

test('load: register, call, tap, result and error interceptors fire', async () => {
  const suite = { name: 'mine', needsAgent: true, cases: () => [testCase('b')] };
  const { ok, failed } = await intercepted(
    (h) => h.load,
    (h, fail) => h.load.tap({ name: 'test:observed', stage: -1 }, fail ? boom : () => suite),
  );
  assert.deepEqual(ok, [...registered('inline'), 'call', 'tap test:observed', 'result']);
  assert.deepEqual(failed, [...registered('inline'), 'call', 'tap test:observed', failure('load')]);
});

test('suite: register, call, tap, result and error interceptors fire, and a tap hands on its own suite', async () => {
  const ran: string[] = [];
  const { ok, failed } = await intercepted(
    (h) => h.suite,
    (h, fail) => {
      h.suite.tap('test:observed', fail ? boom : (suite) => ({ ...suite, cases: () => [testCase('only')] }));
      h.report.tap('test:ids', (e) => void (e.type === 'result' && ran.push(e.id)));
    },
  );
  assert.deepEqual(ok, ['register test:observed', 'call', 'tap test:observed', 'result']);
  assert.deepEqual(failed, ['register test:observed', 'call', 'tap test:observed', failure('suite')]);
  assert.deepEqual(ran, ['only']);
});

test('execute: register, call, tap, result and error interceptors fire', async () => {
  const execution = { run: 1, status: 'passed' as const, duration_ms: 1, output: 'a', assertions: [], metrics: {} };
  const { ok, failed } = await intercepted(
    (h) => h.execute.for('agent'),
    (h, fail) => h.execute.for('agent').tap({ name: 'test:observed', stage: -1 }, fail ? boom : () => execution),
  );
  assert.deepEqual(ok, [...registered('execute'), 'call', 'tap test:observed', 'result']);
  assert.deepEqual(failed, [...registered('execute'), 'call', 'tap test:observed', failure('execute:agent')]);
});

test('assert: register, call, tap, result and error interceptors fire', async () => {
  const { ok, failed } = await intercepted(
    (h) => h.assert.for('contains'),
    (h, fail) =>
      h.assert.for('contains').tap({ name: 'test:observed', stage: -1 }, fail ? boom : () => ({ pass: true })),
  );
  assert.deepEqual(ok, [...registered('contains'), 'call', 'tap test:observed', 'result']);
  assert.deepEqual(failed, [...registered('contains'), 'call', 'tap test:observed', failure('assert:contains')]);
});

test('summary: register, call, tap, result and error interceptors fire, and reporters hear the summary a tap hands on', async () => {
  const heard: unknown[] = [];
  const { ok, failed } = await intercepted(
    (h) => h.summary,
    (h, fail) => {
      h.summary.tap('test:observed', fail ? boom : (summary) => ({ ...summary, agent_id: 'amended' }));
      h.report.tap('test:heard', (e) => void (e.type === 'summary' && heard.push(e.agent_id)));
    },
  );
  assert.deepEqual(ok, ['register test:observed', 'call', 'tap test:observed', 'result']);
  assert.deepEqual(failed, ['register test:observed', 'call', 'tap test:observed', failure('summary')]);
  assert.deepEqual(heard, ['amended']);
});

test('report: register, call, tap, done and error interceptors fire for every event', async () => {
  const { ok, failed } = await intercepted(
    (h) => h.report,
    (h, fail) => h.report.tap('test:observed', (e) => void (fail && e.type === 'summary' && boom())),
  );
  const perEvent = ['call', 'tap test:observed', 'done'];
  // start, case_start, run_result, result, summary
  assert.deepEqual(ok, ['register test:observed', ...Array(5).fill(perEvent).flat()]);
  assert.deepEqual(failed, [
    'register test:observed',
    ...Array(4).fill(perEvent).flat(),
    'call',
    'tap test:observed',
    failure('report'),
  ]);
});

test('teardown: register, call, tap, done and error interceptors fire, and every tap runs', async () => {
  const { ok, failed } = await intercepted(
    (h) => h.teardown,
    (h, fail) => {
      h.teardown.tap('test:observed', fail ? boom : () => undefined);
      h.teardown.tap('test:after', () => undefined);
    },
  );
  const both = ['register test:observed', 'register test:after', 'call', 'tap test:observed'];
  assert.deepEqual(ok, [...both, 'tap test:after', 'done']);
  assert.deepEqual(failed, [...both, failure('teardown'), 'tap test:after', 'done']);
});

test('the dispatch fires interceptors as tapable does for the same hook', async () => {
  const { AsyncSeriesBailHook } = await import('tapable');
  const { callBail } = await import('../src/call-taps.js');
  const heard = async (fire: (hook: InstanceType<typeof AsyncSeriesBailHook<[number, number], number>>) => unknown) => {
    const seen: Seen = [];
    const hook = new AsyncSeriesBailHook<[number, number], number>(['a', 'b'], 'sum');
    hook.intercept({ ...observe(seen), call: (a: number, b: number) => void seen.push(`call ${a} ${b}`) });
    hook.tap('skip', () => undefined as unknown as number);
    hook.tapPromise('sum', async (a, b) => a + b);
    hook.tap('never', () => -1);
    seen.push(`answer ${await fire(hook)}`);
    return seen;
  };
  assert.deepEqual(await heard((hook) => callBail(hook, 2, 3)), await heard((hook) => hook.promise(2, 3)));
});
