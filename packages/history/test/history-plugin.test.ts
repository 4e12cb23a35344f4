import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createKernel,
  type AgentestPlugin,
  type CaseResult,
  type RunEvent,
  type RunPlan,
  type Status,
  type SummaryEvent,
} from '@agentest/kernel';
import { HistoryStore, historyPlugin, type HistoryRecord } from '../src/index.js';

/** A suite of cases `a`, `b` whose outcomes the test sets per run, and a collector of what reporters hear. */
function suite(outcomes: Record<string, Status>, heard: RunEvent[]): AgentestPlugin[] {
  return [
    {
      name: 'test:suite',
      apply({ hooks }) {
        hooks.load.tapPromise('test:suite', async () => ({
          name: 'cases.jsonl',
          needsAgent: false,
          cases: () =>
            Object.keys(outcomes).map((id) => ({ id, kind: 'agent', input: id, source: { file: 'cases.jsonl' } })),
        }));
        hooks.execute.for('agent').tapPromise('test:suite', async (c, ctx) => ({
          run: ctx.run,
          status: outcomes[c.id]!,
          duration_ms: 1,
          assertions: [],
          metrics: {},
          trace: { model: 'fake-model' },
        }));
      },
    },
    { name: 'test:heard', apply: ({ hooks }) => hooks.report.tap('test:heard', (e) => void heard.push(e)) },
  ];
}

const plan: RunPlan = {
  input: { input: 'cases.jsonl', cwd: process.cwd() },
  runs: 1,
  parallel: 1,
  failFast: false,
  env: {},
  verbose: false,
};

async function runOnce(store: HistoryStore, outcomes: Record<string, Status>, extra: { configHash?: string } = {}) {
  const heard: RunEvent[] = [];
  const warnings: string[] = [];
  const past = await store.list().then(
    (listing) => listing.records,
    () => [],
  );
  const outcome = await createKernel({
    plugins: [
      historyPlugin({ store, past, input: 'cases.jsonl', ...extra, onWarning: (w) => warnings.push(w) }),
      ...suite(outcomes, heard),
    ],
  }).run(plan);
  const results = heard.filter((e): e is CaseResult & { type: 'result' } => e.type === 'result');
  const summary = heard.find((e) => e.type === 'summary') as SummaryEvent;
  return { outcome, results, summary, warnings };
}

test('each run is recorded; reporters hear every case with its recent outcomes, and the flaky ones in the summary', async () => {
  const store = new HistoryStore(mkdtempSync(join(tmpdir(), 'agentest-history-plugin-')));
  await runOnce(store, { a: 'passed', b: 'passed' });
  await runOnce(store, { a: 'passed', b: 'failed' });
  const third = await runOnce(store, { a: 'passed', b: 'passed' });
  assert.deepEqual(third.results[0]!.history, { recent: ['passed', 'passed', 'passed'] });
  assert.deepEqual(third.results[1]!.history!.recent, ['passed', 'failed', 'passed']);
  assert.deepEqual(
    third.summary.flaky!.map((f) => [f.id, f.flips, f.transitions, f.flip_rate]),
    [['b', 2, 2, 1]],
  );
  const { records } = await store.list();
  assert.equal(records.length, 3);
  const last: HistoryRecord = records[2]!;
  assert.deepEqual(
    [last.input, last.suite, last.agent, last.model, last.complete, last.totals.passed],
    ['cases.jsonl', 'cases.jsonl', 'cases.jsonl', 'fake-model', true, 2],
  );
  assert.deepEqual(last.cases[1]!.runs, [{ status: 'passed', duration_ms: 1 }]);
});

test('runs with another config are another lineage: their flips do not make a case flaky', async () => {
  const store = new HistoryStore(mkdtempSync(join(tmpdir(), 'agentest-history-plugin-')));
  await runOnce(store, { a: 'failed' }, { configHash: 'old' });
  const now = await runOnce(store, { a: 'passed' }, { configHash: 'new' });
  assert.deepEqual(now.results[0]!.history, { recent: ['passed'] });
  assert.equal(now.summary.flaky, undefined);
});

test('a history that cannot be written is a warning: the run, its verdicts and its exit code stand', async () => {
  const parent = mkdtempSync(join(tmpdir(), 'agentest-history-plugin-'));
  writeFileSync(join(parent, 'history'), 'a file where the folder should be');
  const store = new HistoryStore(join(parent, 'history'));
  const { outcome, warnings, summary } = await runOnce(store, { a: 'passed' });
  assert.deepEqual(outcome.errors, []);
  assert.equal(summary.passed, 1);
  assert.equal(warnings.length, 1);
  assert.match(warnings[0]!, /could not write the run history to .*history: .*(EEXIST|ENOTDIR)/);
});
