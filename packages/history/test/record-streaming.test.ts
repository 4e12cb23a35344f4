import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createKernel, type AgentestPlugin, type RunPlan } from '@agentest/kernel';
import { HistoryStore, historyPlugin } from '../src/index.js';

/**
 * The most cases whose entries may be in memory rather than in the record's file at any moment: the
 * writer holds at most two chunks of 16 KB, about 190 entries of these cases each, and a lane's case
 * more. A plugin that kept every case until the summary would lag by all of them.
 */
const MOST_IN_MEMORY = 500;

/** `n` passing cases, made one at a time as the kernel pulls them (the suite itself is never held). */
function lazySuite(n: number): AgentestPlugin {
  return {
    name: 'test:lazy-suite',
    apply({ hooks }) {
      hooks.load.tapPromise('test:lazy-suite', async () => ({
        name: 'cases.jsonl',
        needsAgent: false,
        cases: function* () {
          for (let i = 0; i < n; i++) yield { id: `c${i}`, kind: 'agent', input: 'x', source: { file: 'cases.jsonl' } };
        },
      }));
      hooks.execute.for('agent').tap('test:lazy-suite', (_case, ctx) => ({
        run: ctx.run,
        status: 'passed',
        duration_ms: 1,
        assertions: [],
        metrics: {},
      }));
    },
  };
}

/** After the history plugin, on every 250th result and the last: how many results the record's file lags behind. */
function lagProbe(dir: string, n: number, lags: number[]): AgentestPlugin {
  let seen = 0;
  return {
    name: 'test:lag-probe',
    apply({ hooks }) {
      hooks.report.tap('test:lag-probe', (event) => {
        if (event.type !== 'result' || (++seen % 250 && seen !== n)) return;
        const writing = existsSync(dir) ? readdirSync(dir).find((f) => f.endsWith('.tmp')) : undefined;
        assert.ok(writing, 'the record is being written while the run goes');
        const onDisk = readFileSync(join(dir, writing), 'utf8').split('{"id":').length - 1;
        lags.push(seen - onDisk);
      });
    },
  };
}

const plan: RunPlan = {
  input: { input: 'cases.jsonl', cwd: process.cwd() },
  runs: 1,
  parallel: 4,
  failFast: false,
  env: {},
  verbose: false,
};

async function recordRun(n: number) {
  const store = new HistoryStore(join(mkdtempSync(join(tmpdir(), 'agentest-history-streaming-')), 'history'));
  const lags: number[] = [];
  const warnings: string[] = [];
  const history = historyPlugin({ store, past: [], input: 'cases.jsonl', onWarning: (w) => warnings.push(w) });
  await createKernel({ plugins: [history, lazySuite(n), lagProbe(store.dir, n, lags)] }).run(plan);
  return { store, lags, warnings };
}

for (const n of [2_000, 20_000]) {
  test(`a run of ${n} cases keeps at most a chunk of its record in memory; the rest is on disk as it goes`, async () => {
    const { store, lags, warnings } = await recordRun(n);
    assert.deepEqual(warnings, []);
    assert.ok(lags.length >= n / 250, 'the probe looked throughout the run');
    assert.ok(Math.max(...lags) < MOST_IN_MEMORY, `at most ${MOST_IN_MEMORY} cases behind, was ${Math.max(...lags)}`);
    const { records } = await store.list();
    assert.equal(records.length, 1);
    const [record] = records;
    assert.equal(record!.cases.length, n);
    assert.deepEqual(record!.totals, { total: n, passed: n, failed: 0, errors: 0, timeouts: 0, skipped: 0 });
    assert.deepEqual(
      new Set(record!.cases.map((c) => c.id)).size,
      n,
      'every case once, whatever order the parallel lanes ended in',
    );
    assert.deepEqual(readdirSync(store.dir), [`${record!.id}.json`], 'no temporary file is left');
  });
}

test('a record that grows past maxBytes is a warning naming its size, and leaves no file behind', async () => {
  const store = new HistoryStore(join(mkdtempSync(join(tmpdir(), 'agentest-history-streaming-')), 'history'), {
    maxBytes: 4096,
  });
  const warnings: string[] = [];
  await createKernel({
    plugins: [
      historyPlugin({ store, past: [], input: 'cases.jsonl', onWarning: (w) => warnings.push(w) }),
      lazySuite(500),
    ],
  }).run(plan);
  assert.equal(warnings.length, 1);
  assert.match(warnings[0]!, /the record of this run takes \d{5} bytes, more than history\.maxBytes \(4096\)/);
  assert.deepEqual(readdirSync(store.dir), []);
});

test('a run that ends without a summary leaves no half-written record behind', async () => {
  const store = new HistoryStore(join(mkdtempSync(join(tmpdir(), 'agentest-history-streaming-')), 'history'));
  const failing: AgentestPlugin = {
    name: 'test:failing-reporter',
    apply: ({ hooks }) =>
      hooks.report.tap('test:failing-reporter', (event) => {
        if (event.type === 'result' && event.id === 'c300') throw new Error('disk full');
      }),
  };
  await assert.rejects(
    createKernel({
      plugins: [historyPlugin({ store, past: [], input: 'cases.jsonl' }), lazySuite(1_000), failing],
    }).run(plan),
    /disk full/,
  );
  assert.deepEqual(readdirSync(store.dir), []);
});
