import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PluginError } from '../src/errors.js';
import { AgentestError, createKernel, defineReporter } from '../src/index.js';
import { collector, inlinePlugins, plan, testCase } from './helpers.js';

test('runs cases end to end and emits start, case_start, run_result, result, summary in order', async () => {
  const c = collector();
  const cases = [
    testCase('a', { assert: [{ type: 'contains', value: 'a' }] }),
    testCase('b', { assert: [{ type: 'contains', value: 'zzz' }] }),
  ];
  const outcome = await createKernel({ plugins: [...inlinePlugins(cases), c.plugin] }).run(plan());
  assert.deepEqual(
    c.events.map((e) => e.type),
    ['start', 'case_start', 'run_result', 'result', 'case_start', 'run_result', 'result', 'summary'],
  );
  assert.equal(outcome.summary.passed, 1);
  assert.equal(outcome.summary.failed, 1);
  const failed = c.events.find((e) => e.type === 'result' && e.id === 'b')!;
  assert.equal(failed.error, "output does not contain 'zzz'");
});

test('negate inverts and message replaces the failure text', async () => {
  const cases = [
    testCase('n1', { assert: [{ type: 'contains', value: 'n1', negate: true }] }),
    testCase('n2', { assert: [{ type: 'contains', value: 'x', message: 'custom words' }] }),
  ];
  const c = collector();
  await createKernel({ plugins: [...inlinePlugins(cases), c.plugin] }).run(plan());
  const results = c.events.filter((e) => e.type === 'result');
  assert.equal(results[0]!.error, "negated: output does not contain 'n1'");
  assert.equal(results[1]!.error, 'custom words');
});

test('an unknown assertion type is rejected before any agent call', async () => {
  let calls = 0;
  const cases = [testCase('a'), testCase('b', { assert: [{ type: 'nope' }] })];
  const kernel = createKernel({ plugins: inlinePlugins(cases, async () => (calls++, {})) });
  await assert.rejects(
    kernel.run(plan()),
    (e: AgentestError) =>
      e.code === 'NO_ASSERTION' && /"nope" \(known: contains\)/.test(e.message) && /inline.jsonl:1/.test(e.message),
  );
  assert.equal(calls, 0);
});

test('an assertion its tap calls malformed (validate) is ASSERTION_INVALID before any agent call', async () => {
  let calls = 0;
  const strict = {
    name: 'test:strict',
    apply: ({ hooks }: { hooks: import('../src/index.js').PublicHooks }) =>
      hooks.assert.for('strict').tap(
        {
          name: 'test:strict',
          validate: (a) => (typeof a.value === 'string' ? undefined : 'needs a string "value"'),
        },
        () => ({ pass: true }),
      ),
  };
  const cases = [
    testCase('a', { assert: [{ type: 'strict', value: 'ok' }] }),
    testCase('b', { assert: [{ type: 'strict', value: 'ok' }, { type: 'strict' }] }),
  ];
  const kernel = createKernel({ plugins: [...inlinePlugins(cases, async () => (calls++, {})), strict] });
  await assert.rejects(
    kernel.run(plan()),
    (e: AgentestError) =>
      e.code === 'ASSERTION_INVALID' &&
      /inline.jsonl:1: assert\[1\] \(strict\): needs a string "value"/.test(e.message),
  );
  assert.equal(calls, 0);
});

test('a throw inside a tap becomes a PluginError naming plugin and hook', async () => {
  const kernel = createKernel({
    plugins: [
      {
        name: 'bad-loader',
        apply: ({ hooks }) =>
          hooks.load.tap('bad-loader', () => {
            throw new Error('boom');
          }),
      },
    ],
  });
  await assert.rejects(
    kernel.run(plan()),
    (e: PluginError) =>
      e instanceof PluginError && e.plugin === 'bad-loader' && e.hook === 'load' && /boom/.test(e.message),
  );
});

test('no loader: the error names the plugins that were asked', async () => {
  const kernel = createKernel({ plugins: inlinePlugins([]) });
  await assert.rejects(
    kernel.run(plan({ input: { input: 'other', cwd: '.' } })),
    (e: AgentestError) => e.code === 'NO_LOADER' && /asked: test:inline/.test(e.message),
  );
});

test('the kernel enforces timeouts even when the executor ignores its signal', async () => {
  const cases = [testCase('slow', { timeoutMs: 30 })];
  const c = collector();
  await createKernel({ plugins: [...inlinePlugins(cases, () => new Promise(() => {})), c.plugin] }).run(plan());
  const result = c.events.find((e) => e.type === 'result')!;
  assert.equal(result.status, 'timeout');
  assert.equal(result.error, 'timeout after 30ms');
});

test("a timeout's message writes the limit the plan's way (Yao's Go format from the CLI), in milliseconds without one", async () => {
  const cases = [testCase('slow', { timeoutMs: 30 }), testCase('slower', { timeoutMs: 40 })];
  const c = collector();
  const hang = () => new Promise<never>(() => {});
  await createKernel({ plugins: [...inlinePlugins(cases, hang), c.plugin] }).run(
    plan({ parallel: 2, durationText: (ms) => `${ms / 1000}s` }),
  );
  const errors = c.events.filter((e) => e.type === 'result').map((e) => e.error);
  assert.deepEqual(errors.sort(), ['timeout after 0.03s', 'timeout after 0.04s']);
});

test('an executor throw is an error result and the run goes on', async () => {
  const cases = [testCase('x'), testCase('y')];
  const c = collector();
  const outcome = await createKernel({
    plugins: [
      ...inlinePlugins(cases, async (tc) => {
        if (tc.id === 'x') throw new Error('agent exploded');
        return {};
      }),
      c.plugin,
    ],
  }).run(plan());
  assert.equal(outcome.summary.errors, 1);
  assert.equal(outcome.summary.passed, 1);
  assert.equal(
    c.events.find((e) => e.id === 'x' && e.type === 'result')!.error,
    'plugin "test:execute" failed in hook "execute:agent": agent exploded',
  );
});

test('--runs computes the stability block and summary counts', async () => {
  let n = 0;
  const cases = [testCase('flaky'), testCase('solid')];
  const outcome = await createKernel({
    plugins: inlinePlugins(cases, async (tc) => ({
      status: tc.id === 'flaky' && n++ % 3 === 0 ? 'failed' : 'passed',
      duration_ms: 10 + n,
    })),
  }).run(plan({ runs: 3 }));
  assert.equal(outcome.summary.total_runs, 6);
  assert.equal(outcome.summary.stable_cases, 1);
  assert.equal(outcome.summary.unstable_cases, 1);
});

test('a case its loader marked unasserted passes with a warning, and the summary counts those that ran', async () => {
  for (const runs of [1, 2]) {
    const c = collector();
    const cases = [
      testCase('bare', { unasserted: true }),
      testCase('skipped', { unasserted: true, skip: true }),
      testCase('checked', { assert: [{ type: 'contains', value: 'checked' }] }),
    ];
    const outcome = await createKernel({ plugins: [...inlinePlugins(cases), c.plugin] }).run(plan({ runs }));
    const results = new Map(c.events.filter((e) => e.type === 'result').map((e) => [e.id, e]));
    assert.equal(results.get('bare')!.status, 'passed', "the verdict is Yao's");
    assert.deepEqual(results.get('bare')!.warnings, [
      'no assertion: the case passes whatever the agent answers; add `assert` or `expected`',
    ]);
    assert.equal(results.get('skipped')!.warnings, undefined);
    assert.equal(results.get('checked')!.warnings, undefined);
    assert.equal(outcome.summary.unasserted, 1, `--runs ${runs}`);
  }
  const none = await createKernel({ plugins: inlinePlugins([testCase('a')]) }).run(plan());
  assert.equal(Object.hasOwn(none.summary, 'unasserted'), false, 'absent when no case lacks an assertion');
});

test('parallel keeps at most N cases in flight', async () => {
  let inFlight = 0;
  let peak = 0;
  const cases = Array.from({ length: 20 }, (_, i) => testCase(`c${i}`));
  await createKernel({
    plugins: inlinePlugins(cases, async () => {
      peak = Math.max(peak, ++inFlight);
      await new Promise((r) => setImmediate(r));
      inFlight--;
      return {};
    }),
  }).run(plan({ parallel: 4 }));
  assert.equal(peak, 4);
});

test('a failing reporter is silenced, the others still hear everything, its error is in the outcome', async () => {
  const c = collector();
  const broken = defineReporter({
    name: 'broken',
    onResult() {
      throw new Error('disk full');
    },
  });
  const outcome = await createKernel({
    plugins: [...inlinePlugins([testCase('a'), testCase('b')]), broken, c.plugin],
  }).run(plan());
  assert.equal(outcome.errors.length, 1);
  assert.match(outcome.errors[0]!.message, /reporter "broken" failed in onResult: disk full/);
  assert.equal(c.events.filter((e) => e.type === 'result').length, 2);
  assert.equal(outcome.summary.passed, 2);
});

test("teardown: every tap runs after one fails, and a failure there (a reporter that cannot close) is in the outcome's errors", async () => {
  const closed: string[] = [];
  const failing = {
    name: 'test:leaky',
    apply: ({ hooks }: { hooks: import('../src/index.js').PublicHooks }) =>
      hooks.teardown.tapPromise('test:leaky', async () => {
        throw new Error('pool close failed');
      }),
  };
  const callback = {
    name: 'test:callback',
    apply: ({ hooks }: { hooks: import('../src/index.js').PublicHooks }) =>
      hooks.teardown.tapAsync('test:callback', (done) => (closed.push('callback'), done())),
  };
  const reporter = defineReporter({ name: 'closer', close: () => void closed.push('reporter') });
  const outcome = await createKernel({ plugins: [...inlinePlugins([testCase('a')]), failing, callback, reporter] }).run(
    plan(),
  );
  assert.deepEqual(closed, ['callback', 'reporter']);
  assert.equal(outcome.errors.length, 1);
  assert.match(outcome.errors[0]!.message, /plugin "test:leaky" failed in hook "teardown": pool close failed/);
});

test("a reporter whose close throws is named in the outcome's errors", async () => {
  const reporter = defineReporter({
    name: 'closer',
    close: () => {
      throw new Error('flush failed');
    },
  });
  const outcome = await createKernel({ plugins: [...inlinePlugins([testCase('a')]), reporter] }).run(plan());
  assert.equal(outcome.errors.length, 1);
  assert.match(outcome.errors[0]!.message, /reporter "closer" failed in close: flush failed/);
});

test('onSetup hears the plan before the first event; one that throws is named and silences only that reporter', async () => {
  const heard: string[] = [];
  const recorder = defineReporter({
    name: 'recorder',
    onSetup: (p) => void heard.push(`setup ${p.runs}`),
    onStart: () => void heard.push('start'),
  });
  const broken = defineReporter({
    name: 'broken',
    onSetup() {
      throw new Error('no plan for me');
    },
    onStart: () => void heard.push('broken start'),
  });
  const outcome = await createKernel({ plugins: [...inlinePlugins([testCase('a')]), recorder, broken] }).run(plan());
  assert.deepEqual(heard, ['setup 1', 'start']);
  assert.equal(outcome.errors.length, 1);
  assert.match(outcome.errors[0]!.message, /reporter "broken" failed in onSetup: no plan for me/);
});

test('an unknown assertion type close to a known one gets a suggestion', async () => {
  const kernel = createKernel({
    plugins: inlinePlugins([testCase('a', { assert: [{ type: 'contain', value: 'a' }] })]),
  });
  await assert.rejects(
    kernel.run(plan()),
    (e: AgentestError) => e.code === 'NO_ASSERTION' && /"contain" \(did you mean "contains"\?\)/.test(e.message),
  );
});
