import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AgentestError, createKernel as createBareKernel, type AgentestPlugin } from '@agentest/kernel';
import { inlinePlugins, runPlan as plan, testCase } from '@agentest/test-utils';
import { verdictPlugin } from '../src/index.js';

// The ship verdict is a plugin: these kernels have it, as the CLI's and `createDefaultKernel`'s do.
const createKernel = ({ plugins }: { plugins: AgentestPlugin[] }) =>
  createBareKernel({ plugins: [...plugins, verdictPlugin()] });

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

test('a share outside 0–100% or a negative latency is refused before the first case, naming the value', async () => {
  for (const [name, value, code, message] of [
    [
      'pass_rate',
      1.01,
      'FLAG_INVALID',
      /--threshold: pass_rate is a share from 0 to 1 \(at most 100%\), got 1\.01 \(101\.0%\)/,
    ],
    [
      'keyword_hit_rate',
      70,
      'CONFIG_INVALID',
      /thresholds\.keyword_hit_rate: .*got 70: write keyword_hit_rate=70% or keyword_hit_rate=0\.7$/,
    ],
    [
      'intent_match_rate',
      -0.05,
      'FLAG_INVALID',
      /--threshold: intent_match_rate .*\(at least 0%\), got -0\.05 \(-5\.0%\)/,
    ],
    ['coverage_lines', 1.5, 'CONFIG_INVALID', /thresholds\.coverage_lines: .*\(at most 100%\), got 1\.5/],
    ['latency_ms', -1, 'FLAG_INVALID', /--threshold: latency_ms is a maximum in milliseconds, got -1/],
  ] as const) {
    let executed = 0;
    const kernel = createKernel({
      plugins: inlinePlugins([testCase('a')], async () => (executed++, { status: 'passed' })),
    });
    await assert.rejects(
      kernel.run(
        plan({ thresholds: { [name]: value }, ...(code === 'FLAG_INVALID' ? { thresholdFlags: [name] } : {}) }),
      ),
      (error: AgentestError) => error.code === code && message.test(error.message),
    );
    assert.equal(executed, 0, `${name}: no case ran`);
  }
  // The bounds themselves are thresholds a run can meet.
  const edges = await createKernel({ plugins: inlinePlugins([testCase('a')]) }).run(
    plan({ thresholds: { pass_rate: 1, keyword_hit_rate: 0, latency_ms: 0 } }),
  );
  assert.equal(edges.summary.total, 1);
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

test('without the verdict plugin the kernel reports the facts only: no thresholds, no verdict', async () => {
  const cases = [testCase('a'), testCase('b', { assert: [{ type: 'contains', value: 'nope' }] })];
  const outcome = await createBareKernel({ plugins: inlinePlugins(cases) }).run(
    plan({ thresholds: { pass_rate: 0.9 } }),
  );
  assert.equal(outcome.summary.failed, 1);
  assert.equal(outcome.summary.thresholds, undefined);
  assert.equal(outcome.summary.verdict, undefined);
});

test('reporters hear the summary with the verdict the summary taps added', async () => {
  const heard: unknown[] = [];
  const cases = [testCase('b', { assert: [{ type: 'contains', value: 'nope' }] })];
  const outcome = await createKernel({
    plugins: [
      ...inlinePlugins(cases),
      {
        name: 'test:listener',
        apply: ({ hooks }) => hooks.report.tap('test:listener', (e) => void (e.type === 'summary' && heard.push(e))),
      },
    ],
  }).run(plan({ thresholds: { pass_rate: 0.9 } }));
  assert.equal(outcome.summary.verdict?.can_ship, false);
  assert.deepEqual((heard[0] as { verdict?: unknown }).verdict, outcome.summary.verdict);
});

test('a run a plugin halted (a budget) does not ship, even when every case that ran passed', async () => {
  const halting: AgentestPlugin = {
    name: 'test:budget',
    apply({ hooks, halt }) {
      hooks.report.tap('test:budget', (event) => {
        if (event.type === 'result') halt!('budget (--max-tokens 1 reached)');
      });
    },
  };
  const cases = [testCase('a'), testCase('b'), testCase('c')];
  const outcome = await createKernel({ plugins: [...inlinePlugins(cases), halting] }).run(
    plan({ thresholds: { pass_rate: 0.5 } }),
  );
  assert.equal(outcome.summary.halted, 'budget (--max-tokens 1 reached)');
  assert.equal(outcome.summary.verdict!.can_ship, false);
  assert.deepEqual(outcome.summary.verdict!.issues, [
    'Stopped early: budget (--max-tokens 1 reached); 2 cases not run',
  ]);
});

test('an interrupted run does not ship either', async () => {
  const stop = new AbortController();
  const interrupting: AgentestPlugin = {
    name: 'test:interrupt',
    apply({ hooks }) {
      hooks.report.tap('test:interrupt', (event) => {
        if (event.type === 'result') stop.abort();
      });
    },
  };
  const cases = [testCase('a'), testCase('b'), testCase('c')];
  const outcome = await createKernel({ plugins: [...inlinePlugins(cases), interrupting] }).run(
    plan({ thresholds: { pass_rate: 0.5 } }),
    { interrupt: stop.signal },
  );
  assert.equal(outcome.summary.interrupted, true);
  assert.equal(outcome.summary.verdict!.can_ship, false);
  assert.deepEqual(outcome.summary.verdict!.issues, ['Run interrupted: 2 cases not run']);
});
