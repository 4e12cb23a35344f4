/**
 * A merge whose reports read nothing of a passed case but its status, figures and history replays
 * each passed case from its line's index (blob format 3) and leaves the rest of the line unparsed.
 * Proven equal to the merge that parses every line whole, on shards with retries, several runs under
 * a run policy, thresholds, failed, errored, skipped and dynamic cases: the merged JSONL report byte
 * for byte, the console, the summary and verdict, and the history record, both into an empty history
 * and into one that already holds a run (the merged history then differs from the recorded one). A
 * format-2 blob, without indexes, merges the same.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import {
  createKernel,
  type AgentestPlugin,
  type Execution,
  type RunEvent,
  type RunPlan,
  type SummaryEvent,
  type TestCase,
} from '@agentest/kernel';
import { HistoryStore, historyPlugin } from '@agentest/history';
import { verdictPlugin } from '@agentest/report';
import consoleReporter from '@agentest/reporter-console';
import jsonlReporter from '@agentest/reporter-jsonl';
import { BLOB_FORMAT, type BlobHeader } from '../src/blob/blob-header.js';
import { blobWriter } from '../src/blob/blob-writer.js';
import { checkShardSet } from '../src/blob/check-blobs.js';
import { readBlob } from '../src/blob/read-blob.js';
import { replayShards } from '../src/blob/replay-shards.js';

const ran = (status: Execution['status'], extra: Record<string, unknown> = {}) => ({
  status,
  output: { text: `said ${status}`, list: [1, 'two', null] },
  assertions: [{ type: 'contains', pass: status === 'passed', message: `output ${status}` }],
  metrics: { score: status === 'passed' ? 1 : 0 },
  ...(status === 'passed' ? {} : { error: `it ${status}` }),
  ...extra,
});

/** Each case's runs by run number (the last one repeats): passes, failures, errors, retries, a dynamic conversation. */
const RUNS: Record<string, Record<string, unknown>[]> = {
  plain: [ran('passed')],
  named: [ran('passed')],
  retried: [ran('passed', { retries: 2 })],
  metered: [ran('passed', { usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 } })],
  dynamic: [ran('passed', { turns: [{ user: 'hi', agent: 'hello' }], details: { goal: 'met' } })],
  flaky: [ran('passed'), ran('failed')],
  failed: [ran('failed')],
  errored: [{ status: 'error', error: 'connector refused', assertions: [], metrics: {} }],
  'no output': [{ status: 'passed', assertions: [], metrics: {} }],
  // Keys named as the blob's own, nested in a value: the line's own are found, or the line is parsed whole.
  tricky: [ran('passed', { details: { a: 1, blob_case: { b: 2 }, blob_run: ['c'] } })],
};

const CASES: TestCase[] = [
  ...Object.keys(RUNS).map((id, i) => ({
    id,
    kind: id === 'dynamic' ? 'conversation' : 'agent',
    ...(id === 'named' ? { name: 'a named case', expected: 42, metadata: { owner: 'me' }, tags: ['smoke'] } : {}),
    input: { message: `case ${i}`, quote: '"\u2028' },
    messages: [],
    source: { file: 'cases.jsonl', line: i + 1 },
  })),
  { id: 'skipped', kind: 'agent', input: 'x', messages: [], skip: 'not today', source: { file: 'cases.jsonl' } },
];
const IDS = CASES.map((c) => c.id);

function shardSuite(ids: readonly string[]): AgentestPlugin {
  const suite = { name: 'cases.jsonl', needsAgent: false, cases: () => CASES.filter((c) => ids.includes(c.id)) };
  const execute = (testCase: TestCase, ctx: { run: number }) => {
    const runs = RUNS[testCase.id]!;
    return { run: ctx.run, duration_ms: 1.25, ...structuredClone(runs[Math.min(ctx.run, runs.length) - 1]) };
  };
  return {
    name: 'test:shard-suite',
    apply({ hooks }) {
      hooks.load.tapPromise('test:shard-suite', async () => suite);
      for (const kind of ['agent', 'conversation']) hooks.execute.for(kind).tap('test:shard-suite', execute as never);
      // As the usage meter does, before the reporters: the case's usage on its result.
      hooks.report.tap({ name: 'test:shard-suite', stage: -100 }, (event: RunEvent) => {
        if (event.type === 'result' && event.id === 'metered') event.usage = { calls: 1, total_tokens: 7 } as never;
      });
    },
  };
}

/** Two runs at most, the second only after a pass: a case that failed stops at one run. */
const stopAfterFailure: RunPlan['runPolicy'] = (_case, runs) =>
  runs.at(-1)!.status === 'passed' ? { stop: false } : { stop: true, decision: 'flagged', reason: 'a run failed' };

/** Two shards of the suite written into `dir`, with `runs` runs per case (and the run policy with several). */
async function writeShards(dir: string, runs: number): Promise<void> {
  const halves = [IDS.filter((_, i) => i % 2 === 0), IDS.filter((_, i) => i % 2 === 1)];
  for (const [n, ids] of halves.entries()) {
    const header: BlobHeader = {
      type: 'blob',
      format: BLOB_FORMAT,
      run_id: 'r',
      run_id_source: '--run-id',
      shard: { index: n + 1, total: 2, source: '--shard' },
      suite_hash: 'sha256:s',
      config_hash: 'sha256:c',
      agentest_version: '1.0.0',
      suite_cases: IDS.length,
      cases: ids,
      positions: ids.map((id) => IDS.indexOf(id)),
      thresholds: { pass_rate: 0.9 },
    };
    const plan: RunPlan = {
      ...basePlan(runs),
      ...(runs > 1 ? { runPolicy: stopAfterFailure } : {}),
      thresholds: { pass_rate: 0.9 },
    };
    const path = join(dir, `shard-${n + 1}.jsonl`);
    // Each shard reads an empty history of its own, as the first merge does: their histories agree.
    const history = historyPlugin({
      store: new HistoryStore(mkdtempSync(join(tmpdir(), 'agentest-shard-history-'))),
      past: [],
      input: 'cases.jsonl',
    });
    await createKernel({ plugins: [shardSuite(ids), history, blobWriter({ path, header: () => header })] }).run(plan);
  }
}

function basePlan(runs: number): RunPlan {
  return {
    input: { input: 'cases.jsonl', cwd: process.cwd() },
    runs,
    parallel: 2,
    failFast: false,
    env: {},
    verbose: false,
  };
}

interface Merged {
  jsonl: string;
  console: string;
  summary: SummaryEvent;
  history: unknown[];
  /** The result lines parsed whole, by their case id. */
  parsedWhole: string[];
}

/** One merge of the blobs in `blobs`, as `agentest merge` runs it, recording into the history in `historyDir`. */
async function merge(blobs: string, out: string, historyDir: string, lean: boolean): Promise<Merged> {
  const files = readdirSync(blobs).sort();
  const set = checkShardSet(await Promise.all(files.map((f) => readBlob(join(blobs, f), f))), undefined);
  const { plan, plugin } = replayShards(set, out, { flakyFromShards: false, lean: () => lean });
  const store = new HistoryStore(historyDir);
  let printed = '';
  const stream = new Writable({ write: (chunk, _e, done) => void ((printed += String(chunk)), done()) });
  let summary: SummaryEvent | undefined;
  const heard: AgentestPlugin = {
    name: 'test:summary',
    apply: ({ hooks }) =>
      hooks.report.tap('test:summary', (event: RunEvent) => void (event.type === 'summary' && (summary = event))),
  };
  const parsedWhole: string[] = [];
  const parse = JSON.parse;
  JSON.parse = ((text: string, ...rest: never[]) => {
    const value = parse(text, ...rest) as { type?: string; id?: string } | null;
    if (value?.type === 'result') parsedWhole.push(value.id!);
    return value;
  }) as typeof JSON.parse;
  const output = join(out, 'merged.jsonl');
  try {
    const past = (await store.list()).records;
    const plugins = [
      plugin,
      historyPlugin({ store, past, input: 'cases.jsonl' }),
      verdictPlugin(),
      jsonlReporter({ output }),
      consoleReporter({ stream, cases: 'failed', color: false }),
      heard,
    ];
    await createKernel({ plugins }).run(plan);
  } finally {
    JSON.parse = parse;
  }
  const history = (await store.list()).records.map(({ id: _id, ...rest }) => rest);
  return { jsonl: readFileSync(output, 'utf8'), console: printed, summary: summary!, history, parsedWhole };
}

/** The same merge, lean and whole, twice each: into an empty history, then into one holding the first merge. */
async function bothWays(blobs: string): Promise<[Merged, Merged][]> {
  const dir = mkdtempSync(join(tmpdir(), 'agentest-lean-index-'));
  const pairs: [Merged, Merged][] = [];
  for (const round of [1, 2]) {
    const [lean, whole] = [join(dir, `lean-${round}`), join(dir, `whole-${round}`)];
    mkdirSync(lean);
    mkdirSync(whole);
    pairs.push([
      await merge(blobs, lean, join(dir, 'lean-history'), true),
      await merge(blobs, whole, join(dir, 'whole-history'), false),
    ]);
  }
  return pairs;
}

function assertSame([lean, whole]: [Merged, Merged], round: string): void {
  assert.equal(lean.jsonl, whole.jsonl, `${round}: the merged JSONL report, byte for byte`);
  assert.equal(lean.console, whole.console, `${round}: the console`);
  assert.deepEqual(lean.summary, whole.summary, `${round}: the summary and the verdict`);
  assert.deepEqual(lean.history, whole.history, `${round}: the history records`);
}

test('one run per case: a merge that replays passed cases from their index writes what the merge parsing every line writes', async () => {
  const blobs = mkdtempSync(join(tmpdir(), 'agentest-lean-blobs-'));
  await writeShards(blobs, 1);
  const [first, second] = await bothWays(blobs);
  assertSame(first!, 'into an empty history');
  assertSame(second!, 'into a history holding a run');
  const indexed = ['plain', 'named', 'retried', 'dynamic', 'flaky', 'no output'];
  assert.deepEqual(first![0].parsedWhole.sort(), ['errored', 'failed', 'metered', 'skipped', 'tricky']);
  assert.deepEqual(
    first![0].parsedWhole.sort(),
    IDS.filter((id) => !indexed.includes(id)).sort(),
    'only the cases without an index are parsed whole',
  );
  assert.deepEqual(first![1].parsedWhole.sort(), [...IDS].sort(), 'the whole merge parses every case');
  assert.deepEqual(second![0].parsedWhole.sort(), [...IDS].sort(), 'a history that differs: every line parsed whole');
  assert.match(first![0].console, /failed/);
  assert.equal(first![0].summary.verdict?.can_ship, false, '8 of 10 passed: below the 0.9 pass rate');

  // A format-2 blob (no index) merges the same, every line parsed whole.
  const format2 = mkdtempSync(join(tmpdir(), 'agentest-format-2-'));
  for (const file of readdirSync(blobs)) {
    const lines = readFileSync(join(blobs, file), 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    lines[0].format = 2;
    for (const line of lines) delete line.blob_case;
    writeFileSync(join(format2, file), `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
  }
  const [[old]] = await bothWays(format2);
  assert.equal(old!.jsonl, first![0].jsonl);
  assert.deepEqual(old!.history, first![0].history);
});

test('several runs per case under a run policy: no index, the same merge both ways', async () => {
  const blobs = mkdtempSync(join(tmpdir(), 'agentest-lean-blobs-'));
  await writeShards(blobs, 3);
  for (const pair of await bothWays(blobs)) assertSame(pair, 'runs 3');
  assert.doesNotMatch(readFileSync(join(blobs, 'shard-1.jsonl'), 'utf8'), /"blob_case"/);
});
