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

test('fail-fast stops starting new cases after the first failure', async () => {
  const cases = Array.from({ length: 10 }, (_, i) =>
    testCase(`c${i}`, { assert: [{ type: 'contains', value: i === 2 ? 'nope' : `c${i}` }] }),
  );
  const outcome = await createKernel({ plugins: inlinePlugins(cases) }).run(plan({ failFast: true }));
  assert.equal(outcome.summary.total, 3);
  assert.equal(outcome.summary.failed, 1);
});

test('interruption stops scheduling, keeps finished results and marks the summary', async () => {
  const controller = new AbortController();
  const cases = Array.from({ length: 10 }, (_, i) => testCase(`c${i}`));
  const c = collector();
  const outcome = await createKernel({
    plugins: [
      ...inlinePlugins(cases, async (tc) => {
        if (tc.id === 'c2') controller.abort();
        return {};
      }),
      c.plugin,
    ],
  }).run(plan(), { interrupt: controller.signal });
  assert.equal(outcome.summary.interrupted, true);
  assert.equal(outcome.summary.total, 3);
  assert.equal(c.events.filter((e) => e.type === 'result').length, 3);
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

test('thresholds produce a verdict; a miss does not ship', async () => {
  const cases = [testCase('a'), testCase('b', { assert: [{ type: 'contains', value: 'nope' }] })];
  const outcome = await createKernel({ plugins: inlinePlugins(cases) }).run(plan({ thresholds: { pass_rate: 0.9 } }));
  assert.equal(outcome.summary.verdict!.can_ship, false);
  assert.match(outcome.summary.verdict!.issues[0]!, /Pass Rate 50.0% < threshold 90.0%/);
});

test('with thresholds, failed cases count against the verdict unless pass_rate is set', async () => {
  const cases = [testCase('a', { metadata: {} }), testCase('b', { assert: [{ type: 'contains', value: 'nope' }] })];
  const strict = await createKernel({ plugins: inlinePlugins(cases) }).run(
    plan({ thresholds: { latency_ms: 10_000 } }),
  );
  assert.equal(strict.summary.verdict!.can_ship, false);
  assert.ok(strict.summary.verdict!.issues.some((i) => /Pass Rate 50.0% < threshold 100.0%/.test(i)));
  const lenient = await createKernel({ plugins: inlinePlugins(cases) }).run(plan({ thresholds: { pass_rate: 0.5 } }));
  assert.equal(lenient.summary.verdict!.can_ship, true);
});

test('a threshold on an unknown name is refused before the first case, with a did-you-mean', async () => {
  for (const [name, code, message] of [
    [
      'pass_rat',
      'CONFIG_INVALID',
      /thresholds\.pass_rat: no metric is named "pass_rat" \(did you mean "pass_rate"\?\)/,
    ],
    ['constructor', 'CONFIG_INVALID', /no metric is named "constructor"/],
    ['__proto__', 'FLAG_INVALID', /--threshold: no metric is named "__proto__"/],
    ['made_up', 'CONFIG_INVALID', /"made_up" .*this suite reports no metrics of its own/],
  ] as const) {
    let executed = 0;
    const kernel = createKernel({
      plugins: inlinePlugins([testCase('a')], async () => (executed++, { status: 'passed' })),
    });
    const thresholds: Record<string, number> = Object.create(null);
    thresholds[name] = 0.5;
    await assert.rejects(
      kernel.run(plan({ thresholds, ...(code === 'FLAG_INVALID' ? { thresholdFlags: [name] } : {}) })),
      (error: AgentestError) => error.code === code && message.test(error.message),
    );
    assert.equal(executed, 0, `${name}: no case ran`);
  }
});

test('a known metric no case measured is not judged; a custom name no case reported is', async () => {
  const cases = [testCase('a')];
  const unmeasured = await createKernel({ plugins: inlinePlugins(cases) }).run(
    plan({ thresholds: { keyword_hit_rate: 0.9, avg_latency_ms: 10 } }),
  );
  assert.deepEqual(unmeasured.summary.verdict, { can_ship: true, issues: [] });
  const custom = createKernel({
    plugins: [
      ...inlinePlugins(cases),
      {
        name: 'custom',
        apply: ({ hooks }) =>
          hooks.load.tap({ name: 'custom', stage: -1 }, () => ({
            name: 's',
            needsAgent: true,
            customMetrics: true,
            cases: () => cases,
          })),
      },
    ],
  });
  const missing = await custom.run(plan({ thresholds: { my_score: 0.5 } }));
  assert.deepEqual(missing.summary.verdict?.issues, ['no case reported a metric named "my_score" (threshold ≥0.5)']);
});

test('a case whose runs all skip at run time is skipped, not passed', async () => {
  const outcome = await createKernel({
    plugins: inlinePlugins([testCase('s'), testCase('p')], async (tc) => ({
      status: tc.id === 's' ? 'skipped' : 'passed',
    })),
  }).run(plan());
  assert.equal(outcome.summary.skipped, 1);
  assert.equal(outcome.summary.passed, 1);
  assert.deepEqual(outcome.errors, []);
});

test('a failing before hook makes its case an error, skips its after, and the run goes on', async () => {
  const afters: string[] = [];
  const cases = [testCase('a'), testCase('b')];
  const [inline] = inlinePlugins(cases);
  const withHooks = {
    name: 'test:hooks',
    apply(api: Parameters<typeof inline.apply>[0]) {
      api.hooks.load.tapPromise({ name: 'test:hooks', stage: -1 }, async () => ({
        name: 'inline',
        needsAgent: true,
        cases: () => cases,
        lifecycle: {
          before: async (c) => {
            if (c.id === 'a') throw new Error('db down');
            return 'data';
          },
          after: async (c) => void afters.push(c.id),
        },
      }));
    },
  };
  const c = collector();
  const outcome = await createKernel({ plugins: [inline!, withHooks, c.plugin] }).run(plan());
  assert.equal(outcome.summary.errors, 1);
  assert.equal(c.events.find((e) => e.type === 'result' && e.id === 'a')!.error, 'before hook failed: db down');
  assert.deepEqual(afters, ['b']);
});

test('a failing after hook keeps the verdict but is kept on its case as a warning', async () => {
  const cases = [testCase('a'), testCase('b')];
  const [inline] = inlinePlugins(cases);
  const withHooks = {
    name: 'test:hooks',
    apply(api: Parameters<typeof inline.apply>[0]) {
      api.hooks.load.tapPromise({ name: 'test:hooks', stage: -1 }, async () => ({
        name: 'inline',
        needsAgent: true,
        cases: () => cases,
        lifecycle: {
          after: async (c) => {
            if (c.id === 'a') throw new Error('cleanup failed');
          },
        },
      }));
    },
  };
  const c = collector();
  const outcome = await createKernel({ plugins: [inline!, withHooks, c.plugin] }).run(plan());
  assert.equal(outcome.summary.passed, 2);
  const results = c.events.filter((e) => e.type === 'result');
  assert.deepEqual(results.find((e) => e.id === 'a')!.warnings, ['after hook failed: cleanup failed']);
  assert.equal(results.find((e) => e.id === 'b')!.warnings, undefined);
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

test('an unknown assertion type close to a known one gets a suggestion', async () => {
  const kernel = createKernel({
    plugins: inlinePlugins([testCase('a', { assert: [{ type: 'contain', value: 'a' }] })]),
  });
  await assert.rejects(
    kernel.run(plan()),
    (e: AgentestError) => e.code === 'NO_ASSERTION' && /"contain" \(did you mean "contains"\?\)/.test(e.message),
  );
});
