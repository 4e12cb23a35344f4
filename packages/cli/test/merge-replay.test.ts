/**
 * The merge replays each case's recorded runs (the kernel's `recordedRuns` seam) and computes the
 * run's statistics with the code a live run uses: proven here on three shards run in process with
 * `--runs 3`, a run policy that stops cases early, thresholds, failed, errored and retried runs,
 * cases with no assertion, and one run per case. The merged results, summary and verdict are the
 * unsharded run's (its clock aside), and the merge runs no case: its executor refuses every call, and
 * no error is reported.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createKernel,
  type AgentestPlugin,
  type Execution,
  type RunEvent,
  type RunPlan,
  type RunPolicy,
  type TestCase,
} from '@agentest/kernel';
import { verdictPlugin } from '@agentest/report';
import type { BlobHeader } from '../src/blob/blob-header.js';
import { blobWriter } from '../src/blob/blob-writer.js';
import { checkShardSet } from '../src/blob/check-blobs.js';
import { readBlob } from '../src/blob/read-blob.js';
import { replayShards } from '../src/blob/replay-shards.js';
import { shardHeader } from './blob-headers.js';

const SHARDS = 3;
const IDS = Array.from({ length: 24 }, (_, i) => `case-${i}`);
const CASES: TestCase[] = IDS.map((id, i) => ({
  id,
  kind: 'agent',
  ...(i % 5 === 0 ? { name: `named ${i}` } : {}),
  input: `input ${i}`,
  messages: [],
  source: { file: 'cases.jsonl', line: i + 1 },
  ...(i === 7 ? { skip: 'not today' } : {}),
  // Cases with no assertion: they pass with a warning, which the merged summary counts again.
  ...(i % 7 === 3 ? { unasserted: true } : {}),
}));

/** Run `run` of case `i`: stable passes, stable failures, unstable cases, errors, retried calls, metrics. */
function runOf(i: number, run: number): Partial<Execution> {
  const metrics = { quality_score: (i % 4) / 4 + run / 10 };
  if (i % 6 === 0) return { status: 'failed', error: 'expected more', output: 'less', metrics };
  if (i % 9 === 4) return { status: 'error', error: 'connector refused', metrics: {} };
  if (i % 4 === 1 && run === 2) return { status: 'failed', error: 'flaked', output: 'no', metrics, retries: 2 };
  return { status: 'passed', output: `answer ${i}`, metrics, ...(i % 3 === 2 ? { retries: 1 } : {}) };
}

function suite(): AgentestPlugin {
  return {
    name: 'test:suite',
    apply({ hooks }) {
      hooks.load.tapPromise('test:suite', async () => ({ name: 'cases.jsonl', needsAgent: false, cases: () => CASES }));
      hooks.execute.for('agent').tap(
        'test:suite',
        (testCase, ctx) =>
          ({
            run: ctx.run,
            duration_ms: 1 + (ctx.run % 3),
            assertions: [],
            ...runOf(IDS.indexOf(testCase.id), ctx.run),
          }) as Execution,
      );
    },
  };
}

// Stops a case whose first two runs passed, as `--runs auto` stops a case whose outcome is settled.
const policy: RunPolicy = (_, runs, max) =>
  runs.length === 2 && runs.every((r) => r.status === 'passed')
    ? { stop: true, decision: 'accepted', reason: 'two passes' }
    : { stop: false, ...(runs.length === max ? { decision: 'undecided' } : {}) };

const plan = (runs: number, extra: Partial<RunPlan> = {}): RunPlan => ({
  input: { input: 'cases.jsonl', cwd: process.cwd() },
  runs,
  // One case at a time, so the events come in one order to compare.
  parallel: 1,
  failFast: false,
  env: {},
  verbose: false,
  thresholds: { pass_rate: 0.6, quality_score: 0.3 },
  ...extra,
});

const shardOf = (id: string) => (IDS.indexOf(id) % SHARDS) + 1;

function header(index: number): BlobHeader {
  const cases = IDS.filter((id) => shardOf(id) === index);
  return shardHeader(index, cases, {
    shard: { index, total: SHARDS, source: '--shard' },
    suite_cases: IDS.length,
    positions: cases.map((id) => IDS.indexOf(id)),
    thresholds: plan(1).thresholds!,
  });
}

function heard(into: RunEvent[]): AgentestPlugin {
  return {
    name: 'test:heard',
    apply: ({ hooks }) => hooks.report.tap('test:heard', (e: RunEvent) => void into.push(e)),
  };
}

/** The events without the run's clock (when it started and ended, how long it took): the shards' is not the run's. */
function comparable(events: readonly RunEvent[]): Record<string, unknown>[] {
  const clock = new Set(['timestamp', 'started_at', 'completed_at']);
  return events.map((event) => {
    const copy = JSON.parse(JSON.stringify(event, (key, value: unknown) => (clock.has(key) ? undefined : value)));
    return event.type === 'summary' ? { ...copy, duration_ms: undefined } : copy;
  });
}

for (const [what, runs, extra] of [
  ['--runs 3 with a run policy', 3, { runPolicy: policy }],
  ['one run per case', 1, {}],
] as const) {
  test(`merged results, summary and verdict are the unsharded run's (${what}), and no case is run`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agentest-replay-'));
    const whole: RunEvent[] = [];
    const wholeOutcome = await createKernel({ plugins: [suite(), verdictPlugin(), heard(whole)] }).run(
      plan(runs, extra),
    );
    const files = [1, 2, 3].map((i) => join(dir, `shard-${i}.jsonl`));
    for (const [i, path] of files.entries()) {
      const include = (c: TestCase) => shardOf(c.id) === i + 1;
      await createKernel({
        plugins: [suite(), verdictPlugin(), blobWriter({ path, header: () => header(i + 1) })],
      }).run(plan(runs, { ...extra, include }));
    }
    const blobs = await Promise.all(files.map((path) => readBlob(path, path)));
    const { plan: merged, plugin } = replayShards(checkShardSet(blobs, undefined), dir);
    const mergedEvents: RunEvent[] = [];
    const outcome = await createKernel({ plugins: [plugin, verdictPlugin(), heard(mergedEvents)] }).run(merged);

    assert.deepEqual(outcome.errors, [], 'the merge ran no case (its executor refuses every call)');
    const results = (events: RunEvent[]) => comparable(events.filter((e) => e.type !== 'start'));
    assert.deepEqual(results(mergedEvents), results(whole));
    const summary = comparable([outcome.summary])[0]!;
    assert.deepEqual(summary, comparable([wholeOutcome.summary])[0]);
    // The fixture has what it claims: failures, errors, retried runs, a skipped case and a verdict.
    assert.ok((summary.failed as number) > 0 && (summary.errors as number) > 0 && summary.skipped === 1);
    assert.ok((summary.unasserted as number) > 0);
    assert.ok(mergedEvents.some((e) => e.type === 'result' && e.runs.some((run) => run.retries)));
    assert.ok(summary.verdict && summary.thresholds);
  });
}
