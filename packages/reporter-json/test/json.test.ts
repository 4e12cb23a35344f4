import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createKernel, type AgentestPlugin, type Execution, type TestCase } from '@agentest/kernel';
import jsonReporter from '../src/index.js';

function scripted(
  kind: string,
  runs: Record<string, Partial<Execution>>,
  meta?: Record<string, unknown>,
): AgentestPlugin {
  return {
    name: 'test:scripted',
    apply({ hooks }) {
      hooks.load.tap('test:scripted', () => ({
        name: kind === 'script' ? 'scripts.expense.setup' : 'inputs.jsonl',
        needsAgent: kind !== 'script',
        ...(meta ? { meta } : {}),
        cases: () =>
          Object.keys(runs).map((id): TestCase => ({
            id,
            kind,
            input: `in ${id}`,
            messages: [],
            source: { file: 'inputs.jsonl', line: 1 },
          })),
      }));
      hooks.resolve.tap('test:scripted', () => ({ id: 'bot', run: async () => ({ content: '', text: '' }) }));
      hooks.execute.for(kind).tap(
        'test:scripted',
        (tc, ctx) =>
          ({
            run: ctx.run,
            status: 'passed',
            duration_ms: 5,
            output: { id: tc.id },
            assertions: [],
            metrics: {},
            ...runs[tc.id],
          }) as Execution,
      );
    },
  };
}

const plan = (runs = 1) => ({
  input: { input: 'inputs.jsonl', cwd: '.' },
  runs,
  parallel: 1,
  failFast: false,
  env: {},
  verbose: false,
});

test('agent suites: summary, environment, results with null defaults, metadata', async () => {
  const output = join(mkdtempSync(join(tmpdir(), 'json-')), 'report.json');
  await createKernel({
    plugins: [
      scripted('agent', { T1: {}, T2: { status: 'failed', error: 'nope' } }),
      jsonReporter({ output, version: '9.9.9' }),
    ],
  }).run(plan());
  const report = JSON.parse(readFileSync(output, 'utf8'));
  assert.deepEqual(Object.keys(report), ['summary', 'environment', 'results', 'metadata']);
  assert.equal(report.summary.total, 2);
  assert.equal(report.summary.type, undefined);
  assert.deepEqual(report.results[0], {
    id: 'T1',
    status: 'passed',
    input: 'in T1',
    output: { id: 'T1' },
    expected: null,
    duration_ms: 5,
    error: null,
    assertions: [],
    source: { file: 'inputs.jsonl', line: 1 },
  });
  assert.equal(report.results[1].error, 'nope');
  assert.equal(report.metadata.version, '9.9.9');
  assert.equal(report.metadata.input_file, 'inputs.jsonl');
  assert.equal(report.metadata.output_file, output);
  assert.equal(report.metadata.options.runs, 1);
});

test('stability mode adds stability_results with run_details', async () => {
  const output = join(mkdtempSync(join(tmpdir(), 'json-')), 'report.json');
  await createKernel({ plugins: [scripted('agent', { T1: {} }), jsonReporter({ output })] }).run(plan(3));
  const report = JSON.parse(readFileSync(output, 'utf8'));
  const block = report.stability_results[0];
  assert.equal(block.runs, 3);
  assert.equal(block.stability_class, 'stable');
  assert.deepEqual(block.pass_rate_ci, [43.8, 100]);
  assert.deepEqual(
    block.run_details.map((r: { run: number }) => r.run),
    [1, 2, 3],
  );
});

test("stability mode is also the seed's stability report: results carry pass_rate and run_details, summary total_cases", async () => {
  const output = join(mkdtempSync(join(tmpdir(), 'json-')), 'report.json');
  const flaky: Record<string, Partial<Execution>> = { T1: {}, T2: { status: 'failed', error: 'nope' } };
  await createKernel({ plugins: [scripted('agent', flaky), jsonReporter({ output })] }).run(plan(3));
  const report = JSON.parse(readFileSync(output, 'utf8'));
  assert.equal(report.summary.total_cases, 2);
  assert.equal(report.summary.total_runs, 6);
  // The seed's CI step: jq -e '.results | all(.pass_rate >= 80)' report.json
  const rates = report.results.map((r: { id: string; pass_rate: number }) => [r.id, r.pass_rate]);
  assert.deepEqual(rates, [
    ['T1', 100],
    ['T2', 0],
  ]);
  const [stable, unstable] = report.results;
  assert.equal(stable.runs, 3);
  assert.equal(stable.stable, true);
  assert.equal(stable.consistency, 1);
  assert.equal(unstable.stability_class, 'highly_unstable');
  assert.equal(unstable.failed, 3);
  assert.deepEqual(
    unstable.run_details.map((r: { run: number; status: string }) => [r.run, r.status]),
    [
      [1, 'failed'],
      [2, 'failed'],
      [3, 'failed'],
    ],
  );
  assert.deepEqual(report.stability_results[1].run_details, unstable.run_details);
});

test('a single-run report has no stability figures on its results nor total_cases', async () => {
  const output = join(mkdtempSync(join(tmpdir(), 'json-')), 'report.json');
  await createKernel({ plugins: [scripted('agent', { T1: {} }), jsonReporter({ output })] }).run(plan());
  const report = JSON.parse(readFileSync(output, 'utf8'));
  assert.equal(report.summary.total_cases, undefined);
  assert.equal(report.results[0].pass_rate, undefined);
  assert.equal(report.results[0].run_details, undefined);
});

test('the script_test report counts tests that threw or timed out as failed, as Yao does: the counts add up', async () => {
  const output = join(mkdtempSync(join(tmpdir(), 'json-')), 'report.json');
  const runs = {
    TestOk: {},
    TestThrows: { status: 'error', error: 'kaboom' },
    TestWrong: { status: 'failed', error: 'assertion failed: ids' },
  } as Record<string, Partial<Execution>>;
  await createKernel({ plugins: [scripted('script', runs), jsonReporter({ output })] }).run(plan());
  const { summary } = JSON.parse(readFileSync(output, 'utf8'));
  assert.equal(summary.total, 3);
  assert.equal(summary.failed, 2);
  assert.equal(summary.errors, 1);
  assert.equal(summary.passed + summary.failed + summary.skipped, summary.total);
});

test("script suites get the seed's script_test report", async () => {
  const output = join(mkdtempSync(join(tmpdir(), 'json-')), 'report.json');
  const runs = {
    TestA: { logs: ['hi'] },
    TestB: {
      status: 'failed',
      error: 'assertion failed: ids',
      details: { assertion: { type: 'Equal', expected: 1, actual: 2, message: 'ids' } },
    },
  } as Record<string, Partial<Execution>>;
  await createKernel({
    plugins: [scripted('script', runs, { script_path: 'expense/src/setup_test.ts' }), jsonReporter({ output })],
  }).run(plan());
  const report = JSON.parse(readFileSync(output, 'utf8'));
  assert.equal(report.type, 'script_test');
  assert.equal(report.script, 'scripts.expense.setup');
  assert.equal(report.script_path, 'expense/src/setup_test.ts');
  assert.deepEqual(report.summary, {
    total: 2,
    passed: 1,
    failed: 1,
    skipped: 0,
    errors: 0,
    timeouts: 0,
    duration_ms: report.summary.duration_ms,
  });
  assert.deepEqual(report.results[0], { name: 'TestA', status: 'passed', duration_ms: 5, logs: ['hi'] });
  assert.deepEqual(report.results[1].assertion, { type: 'Equal', expected: 1, actual: 2, message: 'ids' });
});
