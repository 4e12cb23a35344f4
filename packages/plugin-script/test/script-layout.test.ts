import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { createKernel, type AgentestPlugin, type Execution, type TestCase } from '@agentest/kernel';
import { yaoPlanContext } from '@agentest/plugin-agent';
import consoleReporter from '@agentest/reporter-console';
import { registerScriptLayout } from '../src/script-layout.js';

/** A script suite whose test functions end as given, with the script plugin's console layout registered. */
function scriptSuite(runs: Record<string, Partial<Execution>>, layout = true): AgentestPlugin {
  return {
    name: 'test:script-suite',
    apply({ hooks }) {
      if (layout) registerScriptLayout({ hooks }, 'test:script-suite');
      hooks.load.tap('test:script-suite', () => ({
        name: 'scripts.expense.setup',
        needsAgent: false,
        meta: { mode: 'script', script: 'scripts.expense.setup', script_path: 'expense/src/setup_test.ts' },
        cases: () =>
          Object.keys(runs).map((id): TestCase => ({
            id,
            kind: 'script',
            input: id,
            messages: [],
            source: { file: 'x' },
          })),
      }));
      hooks.execute.for('script').tapPromise('test:script-suite', async (tc, ctx) => ({
        run: ctx.run,
        status: 'passed',
        duration_ms: 12,
        assertions: [],
        metrics: {},
        ...runs[tc.id],
      }));
    },
  };
}

async function render(plugin: AgentestPlugin): Promise<string> {
  const stream = Object.assign(new PassThrough(), { isTTY: false });
  let text = '';
  stream.on('data', (d) => (text += d));
  const plan = {
    input: { input: 'x', cwd: process.cwd() },
    runs: 1,
    parallel: 1,
    failFast: false,
    env: {},
    verbose: true,
    // Who the run acts as, as the CLI's plan gives it (Yao's test-user / test-team by default).
    context: yaoPlanContext({}),
  };
  await createKernel({ plugins: [plugin, consoleReporter({ stream, outputs: ['out.jsonl'] })] }).run(plan);
  return text;
}

const RUNS: Record<string, Partial<Execution>> = {
  TestSystemReady: { status: 'passed', logs: ['ready'] },
  TestSetupWithMockData: {
    status: 'failed',
    error: 'assertion failed: Result ID should match',
    details: { assertion: { type: 'Equal', expected: 1, actual: 2 } },
  },
};

test("the script plugin's console layout: the seed's Script Test output with expected and actual", async () => {
  const text = await render(scriptSuite(RUNS));
  assert.match(
    text,
    / {2}Script Test: scripts\.expense\.setup\n═{63}\n {2}Script: expense\/src\/setup_test\.ts\n {2}Tests: 2 functions\n {2}User: test-user\n {2}Team: test-team\n/,
  );
  assert.match(text, /► \[TestSystemReady\] \.\.\.\n {2}✓ PASSED \(12ms\)\n {4}│ ready\n/);
  assert.match(
    text,
    /► \[TestSetupWithMockData\] \.\.\.\n {2}✗ FAILED \(12ms\)\n {4}└─ assertion failed: Result ID should match\n {7}expected: 1\n {7}actual: 2\n/,
  );
  // The console still repeats the failed cases before the summary.
  assert.match(
    text,
    /Failed Cases \(1\)[\s\S]*Summary: 1 passed, 1 failed, 0 skipped \(\d+(ms|µs)\)\n {2}Output: out\.jsonl/,
  );
});

test('the script summary counts a test that threw or timed out as failed, naming the kinds in brackets', async () => {
  const text = await render(
    scriptSuite({
      TestOk: { status: 'passed' },
      TestThrows: { status: 'error', error: 'kaboom' },
      TestHangs: { status: 'timeout', error: 'timeout after 30s' },
      TestWrong: { status: 'failed', error: 'assertion failed: nope' },
    }),
  );
  assert.match(text, /Summary: 1 passed, 3 failed \(1 error, 1 timeout\), 0 skipped \(/);
});

test('without the script layout registered the console prints the suite with its agent layout', async () => {
  const text = await render(scriptSuite(RUNS, false));
  assert.doesNotMatch(text, /Script Test:/);
  assert.match(text, /Agent Test/);
});
